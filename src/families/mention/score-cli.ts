// `metaserver score MENTION`: gold and runs as brat directories, single `.ann` files or
// BIO files (gold and runs in the same form), or corpus files — BioC XML, JSON or JSON
// lines, PubTator — which hold documents by id like a brat directory and are scored alike
// (a corpus gold against a corpus or brat-directory run). A file's form is told from its
// content, whatever its name (corpus exports come as `.txt`, `.bioc-json`…); the name
// only decides between readers when the content says nothing.

import { join } from 'node:path';
import { runName, type ScoreFiles, type ScoreFlags } from '../../scoring/score-files.ts';
import { FormatError } from '../../formats/common.ts';
import { corpusFormatOf, readCorpusFile } from '../../formats/corpus-file.ts';
import { UNTYPED } from './types.ts';
import { isIndividualMention } from './corpus.ts';
import { isDiscontinuous } from '../../formats/bioc-corpus.ts';
import { discontinuousWarnings, type DiscontinuousLeftOut } from '../common/discontinuous.ts';
import {
  ScoringInputError,
  checkBioAlignment,
  duplicateMentionWarnings,
  parseBio,
  parseBratMentions,
  scoreMentions,
  type BioDocument,
  type Mention,
  type ScoreReport,
} from '../../scoring/index.ts';

type MentionSource =
  { kind: 'brat'; dir: boolean; corpus: boolean; mentions: Mention[]; docs: Set<string> } | { kind: 'bio'; doc: BioDocument; file: string };
const BIO_EXTENSIONS = /\.(bio|conll|iob|tsv)$/i;
const BRAT_LINE = /^T\S*\t\S+ \d+ \d+/m;
const CORPUS_EXTENSIONS = /\.(xml|json|jsonl|bioc[\w-]*|pubtator)$/i;
const PUBTATOR_START = /^\uFEFF?\s*[^|\t\s]+\|t\|/;
/** A BIO token line: a token (and maybe more columns), then `O` or a B-/I-/E-/S-/L-/U- tag. */
const BIO_TOKEN_LINE = /^\S.*\s(O|[BIESLU]-\S+)$/;

/** The first line holding a token or markup (blank lines and BIO document markers skipped). */
function firstContentLine(text: string): string | undefined {
  for (const raw of text.replace(/^\uFEFF/, '').split('\n', 50)) {
    const line = raw.trim();
    if (line !== '' && !line.startsWith('-DOCSTART-') && !line.startsWith('###')) return line;
  }
  return undefined;
}

type FileForm = 'corpus' | 'brat' | 'bio';

/**
 * How to read a gold or run file. PubTator's title line and a BIO token line are told
 * first (a BIO file may start with a token `<` or `{`, which alone would look like BioC);
 * then BioC (XML `<`, JSON `{` or `[`, JSON lines: corpusFormatOf), brat text-bound lines;
 * the name decides only for content none of them recognises.
 */
export function mentionFileForm(path: string, text: string): FileForm {
  if (PUBTATOR_START.test(text)) return 'corpus';
  const first = firstContentLine(text);
  if (first !== undefined && BIO_TOKEN_LINE.test(first)) return 'bio';
  if (corpusFormatOf(text) !== 'pubtator') return 'corpus';
  if (!BIO_EXTENSIONS.test(path) && (path.endsWith('.ann') || BRAT_LINE.test(text))) return 'brat';
  return CORPUS_EXTENSIONS.test(path) ? 'corpus' : 'bio';
}

/** Every located annotation of a corpus file as a mention of its type (as corpus gold uploads read them). */
function corpusMentions(text: string, file: string, files: Pick<ScoreFiles, 'warn'>): MentionSource {
  let documents;
  try {
    documents = readCorpusFile(text, file);
  } catch (err) {
    if (err instanceof FormatError)
      throw new ScoringInputError(err.message, {
        file,
        hint: 'give a BioC XML, JSON or JSON lines file or a PubTator file whose annotations fit their text',
      });
    throw err;
  }
  // BC5CDR's BioC writes a composite's individual mentions as annotations too; as in gold
  // uploads, they are not mentions. Another discontinuous annotation is left out, named.
  const discontinuous: DiscontinuousLeftOut[] = [];
  const mentions = documents.flatMap((d) =>
    d.annotations.flatMap((a) => {
      if (a.start === undefined || isIndividualMention(a)) return [];
      if (isDiscontinuous(a)) {
        discontinuous.push({ document: d.id, annotation: a });
        return [];
      }
      return [{ doc: d.id, start: a.start, end: a.end!, type: a.type ?? UNTYPED }];
    }),
  );
  files.warn(discontinuousWarnings(discontinuous, 'MENTION', 'a mention').map((w) => `${file}: ${w}`));
  return { kind: 'brat', dir: true, corpus: true, mentions, docs: new Set(documents.map((d) => d.id)) };
}

const formName = (source: MentionSource): string =>
  source.kind === 'bio' ? 'a BIO file' : source.corpus ? 'a corpus file' : source.dir ? 'a brat directory' : 'a single .ann file';

async function loadMentions(files: ScoreFiles, path: string, o: ScoreFlags): Promise<MentionSource> {
  const entries = await files.listDir(path);
  if (entries) {
    const mentions: Mention[] = [];
    const docs = new Set(entries.filter((n) => /\.(ann|txt)$/.test(n)).map((n) => n.replace(/\.(ann|txt)$/, '')));
    for (const name of entries.filter((n) => n.endsWith('.ann'))) {
      const file = join(path, name);
      mentions.push(...parseBratMentions(await files.read(file), { doc: name.slice(0, -4), file }));
    }
    return { kind: 'brat', dir: true, corpus: false, mentions, docs };
  }
  const text = await files.read(path);
  const form = mentionFileForm(path, text);
  if (form === 'corpus') return corpusMentions(text, path, files);
  if (form === 'brat')
    return { kind: 'brat', dir: false, corpus: false, mentions: parseBratMentions(text, { file: path }), docs: new Set(['']) };
  // Single-class BIO is read as evalbio.pl -1 reads it: a type change inside a mention is no break.
  const parsed = parseBio(text, { file: path, lenient: o.lenient === true, singleClass: o.singleClass === true });
  files.warn(parsed.warnings);
  return { kind: 'bio', doc: parsed.value, file: path };
}

export async function scoreMentionFiles(runs: string[], o: ScoreFlags, files: ScoreFiles): Promise<ScoreReport['runs']> {
  const goldPath = o.gold as string;
  const gold = await loadMentions(files, goldPath, o);
  const scored: ScoreReport['runs'] = [];
  for (const path of runs) {
    const run = await loadMentions(files, path, o);
    let goldMentions: Mention[];
    let runMentions: Mention[];
    if (gold.kind === 'bio' && run.kind === 'bio') {
      checkBioAlignment(gold.doc, run.doc, { gold: gold.file, response: run.file });
      [goldMentions, runMentions] = [gold.doc.mentions, run.doc.mentions];
    } else if (gold.kind === 'brat' && run.kind === 'brat' && gold.dir === run.dir) {
      const stray = [...run.docs].filter((d) => !gold.docs.has(d));
      if (stray.length > 0) files.warn([`${path}: ignored documents not in the gold: ${stray.join(', ')}`]);
      [goldMentions, runMentions] = [gold.mentions, run.mentions.filter((m) => gold.docs.has(m.doc))];
    } else {
      throw new ScoringInputError(
        `was read as ${formName(run)} and the gold ${goldPath} as ${formName(gold)}, which cannot be scored together`,
        {
          file: path,
          hint: 'give a corpus file (BioC XML, JSON or JSON lines; PubTator) or a brat directory with either, a single .ann file with a single .ann file, BIO with BIO',
        },
      );
    }
    // Each side is a set (a repeat counts once); say which mentions were given twice.
    if (scored.length === 0) files.warn(duplicateMentionWarnings(goldPath, goldMentions));
    files.warn(duplicateMentionWarnings(path, runMentions));
    scored.push({ run: runName(path), metrics: { ...scoreMentions(goldMentions, runMentions, { singleClass: o.singleClass === true }) } });
  }
  return scored;
}
