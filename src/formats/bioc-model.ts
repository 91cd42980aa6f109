// BioC (collection → document → passage → annotation/relation) as plain objects, and the
// mapping between it and our articles; bioc-xml.ts and bioc-json.ts only serialise it.
//
// Mapping (README.md in this folder):
// - Offsets and lengths count Unicode code points, like every offset of our API; the
//   collection says so in its `key` and in the infon `offset-unit: code-point`.
// - Each article is one document; its text is cut into passages at runs of two or more
//   LF (blank lines), so the gaps hold only LF and the document infon `length` restores
//   the text exactly.
// - MENTION items and COREF expressions are annotations in the passage holding their
//   start; COREF links are document relations (nodes `Anaphora`, `Antecedent`).
//   Infons: `server`, `task`, then the item's own fields (`type`, `confidence`, `rank`,
//   `section`; COREF: `id`, `min-offset`, `min-length`, `proteins`). Ids are `a<k>.<n>`:
//   answer k, item n, which restores the original order on import.
// - Document infons `answer.<k>.server` / `answer.<k>.tasks` list every answer that had
//   MENTION or COREF, so an empty answer survives. ACT, INT and IPT have no place in
//   BioC and are not exported (use TSV).

import { CodePointText } from '../tasks/text.ts';
import type { AnswerResult, CorefExpression, CorefLink, MentionItem } from '../tasks/types.ts';
import { FormatError, type ExportAnswer, type ExportArticle } from './common.ts';

export type Infons = Record<string, string>;
export interface BiocLocation { offset: number; length: number }
export interface BiocAnnotation { id: string; infons: Infons; locations: BiocLocation[]; text: string }
export interface BiocNode { refid: string; role: string }
export interface BiocRelation { id: string; infons: Infons; nodes: BiocNode[] }
export interface BiocPassage { offset: number; infons: Infons; text: string; annotations: BiocAnnotation[]; relations: BiocRelation[] }
export interface BiocDocument { id: string; infons: Infons; passages: BiocPassage[]; relations: BiocRelation[] }
export interface BiocCollection { source: string; date: string; key: string; infons: Infons; documents: BiocDocument[] }

export interface BiocOptions {
  source?: string;
  /** Default: today, YYYY-MM-DD. */
  date?: string;
}

export const BIOC_KEY = 'metaserver: location offsets and lengths count Unicode code points; annotation infons: server, task, type';
const BIOC_TASKS = ['MENTION', 'COREF'] as const;

/** Passages: the text cut at runs of ≥ 2 LF; offsets in code points. */
function passagesOf(text: string): BiocPassage[] {
  const passages: BiocPassage[] = [];
  const separator = /\n{2,}/g;
  let from = 0;
  let cp = 0;
  const push = (to: number) => {
    const piece = text.slice(from, to);
    if (piece !== '') passages.push({ offset: cp, infons: {}, text: piece, annotations: [], relations: [] });
    cp += [...piece].length;
  };
  for (let m = separator.exec(text); m; m = separator.exec(text)) {
    push(m.index);
    cp += m[0].length;
    from = m.index + m[0].length;
  }
  push(text.length);
  if (passages.length === 0) passages.push({ offset: 0, infons: {}, text: '', annotations: [], relations: [] });
  return passages;
}

function passageAt(passages: BiocPassage[], offset: number): BiocPassage {
  let found = passages[0];
  for (const p of passages) if (p.offset <= offset) found = p;
  return found;
}

function setOptional(infons: Infons, key: string, value: string | number | undefined): void {
  if (value !== undefined) infons[key] = String(value);
}

function exportAnswer(answer: ExportAnswer, k: number, tasks: readonly string[], doc: BiocDocument): void {
  const { MENTION, COREF } = answer.result;
  doc.infons[`answer.${k}.server`] = answer.server;
  doc.infons[`answer.${k}.tasks`] = tasks.join(',');
  let n = 0;
  const annotate = (start: number, end: number, text: string, infons: Infons) => {
    const annotation = { id: `a${k}.${++n}`, infons: { server: answer.server, ...infons }, locations: [{ offset: start, length: end - start }], text };
    passageAt(doc.passages, start).annotations.push(annotation);
    return annotation.id;
  };
  for (const m of MENTION ?? []) {
    const infons: Infons = { task: 'MENTION' };
    setOptional(infons, 'type', m.type);
    setOptional(infons, 'confidence', m.confidence);
    setOptional(infons, 'rank', m.rank);
    setOptional(infons, 'section', m.section);
    annotate(m.start, m.end, m.text, infons);
  }
  const refOf = new Map<string, string>();
  for (const e of COREF?.expressions ?? []) {
    const infons: Infons = { task: 'COREF', type: 'Exp', id: e.id };
    if (e.min) Object.assign(infons, { 'min-offset': String(e.min.start), 'min-length': String(e.min.end - e.min.start) });
    refOf.set(e.id, annotate(e.start, e.end, e.text, infons));
  }
  for (const link of COREF?.links ?? []) {
    const infons: Infons = { server: answer.server, task: 'COREF', type: 'Coref', id: link.id };
    if (link.proteins) infons.proteins = link.proteins.join(',');
    // A link may name a given protein, which is no annotation here: the id then stands as written.
    const nodes = [
      { refid: refOf.get(link.anaphor) ?? link.anaphor, role: 'Anaphora' },
      { refid: refOf.get(link.antecedent) ?? link.antecedent, role: 'Antecedent' },
    ];
    doc.relations.push({ id: `a${k}.${++n}`, infons, nodes });
  }
}

export function articlesToBioc(articles: readonly ExportArticle[], options: BiocOptions = {}): BiocCollection {
  const documents = articles.map((article) => {
    const doc: BiocDocument = { id: article.id, infons: { length: String([...article.text].length) }, passages: passagesOf(article.text), relations: [] };
    let k = 0;
    for (const answer of article.answers) {
      const tasks = BIOC_TASKS.filter((t) => answer.result[t] !== undefined);
      if (tasks.length > 0) exportAnswer(answer, ++k, tasks, doc);
    }
    return doc;
  });
  return {
    source: options.source ?? 'metaserver',
    date: options.date ?? new Date().toISOString().slice(0, 10),
    key: BIOC_KEY,
    infons: { 'offset-unit': 'code-point' },
    documents,
  };
}

const sequence = (id: string): number => Number(/\.(\d+)$/.exec(id)?.[1] ?? Number.MAX_SAFE_INTEGER);

function documentText(doc: BiocDocument): string {
  let text = '';
  let cp = 0;
  for (const p of [...doc.passages].sort((x, y) => x.offset - y.offset)) {
    if (p.offset < cp) throw new FormatError('bioc', `document ${doc.id}: passages overlap at offset ${p.offset}`);
    text += '\n'.repeat(p.offset - cp) + p.text;
    cp = p.offset + [...p.text].length;
  }
  const length = doc.infons.length === undefined ? cp : Number(doc.infons.length);
  return text + '\n'.repeat(Math.max(0, length - cp));
}

function importAnswer(doc: BiocDocument, k: number, server: string, tasks: string[], text: CodePointText): ExportAnswer {
  // The id prefix, not the server infon, tells answers apart: two answers may share a label.
  const mine = (id: string) => id.startsWith(`a${k}.`);
  const annotations = doc.passages.flatMap((p) => p.annotations).filter((a) => mine(a.id)).sort((x, y) => sequence(x.id) - sequence(y.id));
  const result: AnswerResult = {};
  const span = (a: BiocAnnotation) => {
    const location = a.locations[0];
    if (!location) throw new FormatError('bioc', `document ${doc.id}: annotation ${a.id} has no location`);
    return { start: location.offset, end: location.offset + location.length };
  };
  if (tasks.includes('MENTION')) {
    result.MENTION = annotations.filter((a) => a.infons.task === 'MENTION').map((a) => {
      const m: MentionItem = { ...span(a), text: a.text };
      if (a.infons.type !== undefined) m.type = a.infons.type;
      if (a.infons.confidence !== undefined) m.confidence = Number(a.infons.confidence);
      if (a.infons.section !== undefined) m.section = a.infons.section;
      if (a.infons.rank !== undefined) m.rank = Number(a.infons.rank);
      return m;
    });
  }
  if (tasks.includes('COREF')) {
    const idOf = new Map<string, string>();
    const expressions = annotations.filter((a) => a.infons.task === 'COREF').map((a) => {
      const e: CorefExpression = { id: a.infons.id ?? a.id, ...span(a), text: a.text };
      idOf.set(a.id, e.id);
      if (a.infons['min-offset'] !== undefined) {
        const start = Number(a.infons['min-offset']);
        const end = start + Number(a.infons['min-length']);
        e.min = { start, end, text: text.slice(start, end) };
      }
      return e;
    });
    const links = doc.relations.filter((r) => mine(r.id) && r.infons.task === 'COREF').sort((x, y) => sequence(x.id) - sequence(y.id)).map((r) => {
      const node = (role: string) => r.nodes.find((n) => n.role === role)?.refid ?? '';
      const link: CorefLink = { id: r.infons.id ?? r.id, anaphor: idOf.get(node('Anaphora')) ?? node('Anaphora'), antecedent: idOf.get(node('Antecedent')) ?? node('Antecedent') };
      if (r.infons.proteins !== undefined) link.proteins = r.infons.proteins === '' ? [] : r.infons.proteins.split(',');
      return link;
    });
    result.COREF = { expressions, links };
  }
  return { server, result };
}

export function biocToArticles(collection: BiocCollection): ExportArticle[] {
  return collection.documents.map((doc) => {
    const text = documentText(doc);
    const codePoints = new CodePointText(text);
    const answers: ExportAnswer[] = [];
    for (let k = 1; doc.infons[`answer.${k}.server`] !== undefined; k++) {
      answers.push(importAnswer(doc, k, doc.infons[`answer.${k}.server`], (doc.infons[`answer.${k}.tasks`] ?? '').split(','), codePoints));
    }
    return { id: doc.id, text, answers };
  });
}
