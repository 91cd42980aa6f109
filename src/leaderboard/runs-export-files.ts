// The files of the runs' export (runs-export.ts), each in a form `metaserver score` reads
// for its task, so that a run file scored against its gold file gives the run's row:
// - the BC II.5 tab-separated files (ACT, INT, IPT, TX: what `score` reads as bc2-tsv): an
//   offline run and the gold as stored (the upload as sent), an online run as the family
//   writes one (`scoring.exportTsv`, ranks and confidences: scored with the default columns);
// - brat directories (MENTION: stored as `{"documents": {"<id>": {"ann": …}}}`, which `score`
//   does not read): one `<id>.ann` per document, the text of each as stored; an online
//   run's mentions written as T lines at their offsets (and N lines for their concept ids).
// A family whose runs are in no such form is left out, saying why.
import type { ColumnLayout, Mention } from '../scoring/index.ts';
import { FormatError } from '../formats/common.ts';
import type { ArchiveFile } from '../formats/tar-gz.ts';
import { SCORE_FILE_FORMATS } from '../scoring/score-files.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import type { RunData } from './inputs.ts';

/** How a task's runs and gold are written: one tab-separated file, or a directory of brat `.ann` files. */
export type RunFileForm = 'tsv' | 'brat-dir';

/** The form the task's runs are written in; undefined when `metaserver score` reads none the export can write. */
export function runFileForm(task: TaskName): RunFileForm | undefined {
  const scoring = familyOf(task).scoring;
  if (scoring.cli.reads.includes('bc2-tsv') && scoring.upload === 'tsv' && scoring.exportTsv) return 'tsv';
  if (scoring.cli.reads.includes('brat-dir') && scoring.upload === 'json' && scoring.goldForm.includes('"ann"')) return 'brat-dir';
  return undefined;
}

/** Why a task's runs are not in the archive. */
export function notWrittenReason(task: TaskName): string {
  const reads = familyOf(task).scoring.cli.reads.map((f) => SCORE_FILE_FORMATS[f]);
  return `${task} runs are not written: the export writes runs in the forms checked to score back to their rows (BC II.5 tab-separated files, brat directories), and \`metaserver score ${task}\` reads ${reads.join('; ')}`;
}

/** The columns to score a file of the form with (`metaserver score --columns`); null: the task takes none. */
export function onlineColumns(form: RunFileForm): ColumnLayout | null {
  return form === 'tsv' ? 'rank,confidence' : null;
}

/**
 * A name as one path segment of the archive: percent-encoded as in a URL (a PubMed id or
 * `T3_R1` stays as it is), a leading dot too, so no name climbs out of its folder.
 */
export const segment = (name: string): string => encodeURIComponent(name).replace(/^\./, '%2E');

/** The path of a run's (or the gold's) file or folder, as the manifest names it. */
export function pathOf(form: RunFileForm, base: string): string {
  return form === 'tsv' ? `${base}.tsv` : `${base}/`;
}

/** The documents of a stored brat-form body: `{"documents": {"<id>": {"ann": "…"}}}`. */
function bratDocuments(body: string): Array<[string, string]> {
  const documents = (JSON.parse(body) as { documents?: Record<string, { ann?: unknown }> }).documents ?? {};
  return Object.entries(documents).map(([id, doc]) => [id, typeof doc?.ann === 'string' ? doc.ann : '']);
}

/** A stored body (an offline run, the gold) as the form's files under `base`: the text as stored, split per document for brat. */
export function storedFiles(form: RunFileForm, base: string, body: string): ArchiveFile[] {
  if (form === 'tsv') return [{ name: pathOf(form, base), content: body }];
  return bratDocuments(body).map(([id, ann]) => ({ name: `${base}/${segment(id)}.ann`, content: ann }));
}

/** One document's mentions as a brat `.ann`: T lines at the stored offsets, an N line per concept id. */
function mentionsAnn(mentions: readonly Mention[]): string {
  const lines: string[] = [];
  let n = 0;
  mentions.forEach((m, i) => {
    if (/\s/.test(m.type)) throw new FormatError('brat', `the mention type "${m.type}" holds a space, which a T line cannot`);
    lines.push(`T${i + 1}\t${m.type} ${m.start} ${m.end}\t`);
    for (const id of m.ids ?? []) lines.push(`N${++n}\tReference T${i + 1} ${id}\t`);
  });
  return lines.map((l) => `${l}\n`).join('');
}

/**
 * An online run (the family's run of a server's stored answers) as the form's files under
 * `base`. For brat, every answered document gets its `.ann` (an empty one too); a run of the
 * brat form is the scoring library's mentions (MENTION's run).
 */
export function onlineFiles(form: RunFileForm, base: string, data: RunData, answered: readonly string[]): ArchiveFile[] {
  if (form === 'tsv') return [{ name: pathOf(form, base), content: familyOf(data.task).scoring.exportTsv!(data.run) }];
  const byDoc = new Map<string, Mention[]>(answered.map((doc) => [doc, []]));
  for (const m of data.run as Mention[]) (byDoc.get(m.doc) ?? byDoc.set(m.doc, []).get(m.doc)!).push(m);
  return [...byDoc].map(([doc, mentions]) => ({ name: `${base}/${segment(doc)}.ann`, content: mentionsAnn(mentions) }));
}
