// Writes seeded random cases for a differential run of `metaserver score NORM` against
// BC5CDR_Evaluation 0.0.3 (eval_mention / eval_id) and NLM-Chem's evaluate.py (span strict
// and approx, identifier strict), both fetched separately and never kept here:
//   npx tsx scripts/differential/norm-cases.ts OUT_DIR [COUNT=300] [SEED=norm]
// Each case folder holds gold.pubtator and run.pubtator, the same documents as BioC XML
// (gold.xml, run.xml: the id column as `identifier` and, but for genes, as BC5CDR's `MESH` infon),
// and type.txt (the one type scored, empty for every type). The cases reach every rule of
// src/scoring/concept-norm.ts: composite ids joined by `|` or `,`, `-1`, no id column, ids
// with and without `MESH:`, OMIM and gene ids, repeated mentions, the same span with
// another type or other ids, overlapping and nested spans, zero-length spans, BC5CDR's
// individual mentions (BioC `CompositeRole`), documents missing on one side or without
// gold annotations of the type scored, and type filters.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/shared/prng.ts';

const [out, countArg = '300', seed = 'norm'] = process.argv.slice(2);
if (!out) {
  console.error('usage: norm-cases.ts OUT_DIR [COUNT] [SEED]');
  process.exit(2);
}
const random = seededRandom(seed);
const int = (n: number): number => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
const chance = (p: number): boolean => random() < p;

const TYPES = ['Disease', 'Chemical', 'Gene'] as const;
const WORDS = ['renal', 'failure', 'lidocaine', 'asystole', 'cardiac', 'and', 'of', 'the', 'dopa', 'tumor', 'BRCA1', 'café', 'acute'];

interface Doc {
  id: string;
  title: string;
  abstract: string;
}
interface Ann {
  doc: string;
  start: number;
  end: number;
  type: string;
  ids?: string;
  individual?: boolean;
}

const sentence = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');

/** One id as a corpus writes it for the type: MeSH (bare or prefixed), OMIM, a gene number. */
function oneId(type: string, pool: string[]): string {
  // A bare number is a gene id, a bare D… a MeSH one: an id taken from the pool must fit the type.
  const fitting = pool.filter((id) => id.includes(':') || /^\d+$/.test(id) === (type === 'Gene'));
  if (fitting.length > 0 && chance(0.6)) return pick(fitting);
  if (type === 'Gene') return String(1 + int(30));
  if (type === 'Disease' && chance(0.15)) return `OMIM:${100000 + int(5)}`;
  const accession = `D${String(int(12)).padStart(6, '0')}`;
  return chance(0.3) ? `MESH:${accession}` : accession;
}

function idColumn(type: string, pool: string[], separator: string): string | undefined {
  if (chance(0.1)) return undefined;
  if (chance(0.12)) return '-1';
  const n = chance(0.2) ? 2 + int(2) : 1;
  const ids = Array.from({ length: n }, () => oneId(type, pool));
  if (n > 1 && chance(0.2)) ids[int(n)] = '-1';
  return ids.join(separator);
}

function documentText(d: Doc): string {
  return `${d.title}\n${d.abstract}`;
}

/** A span inside the title or inside the abstract (never across), sometimes empty. */
function span(d: Doc): { start: number; end: number } {
  const inTitle = chance(0.4);
  const [from, length] = inTitle ? [0, d.title.length] : [d.title.length + 1, d.abstract.length];
  if (chance(0.03)) {
    const at = from + int(length + 1);
    return { start: at, end: at };
  }
  const start = from + int(length - 1);
  const end = Math.min(from + length, start + 1 + int(12));
  return { start, end };
}

function goldAnnotations(docs: Doc[], separator: string): Ann[] {
  const anns: Ann[] = [];
  for (const d of docs) {
    const pool: string[] = [];
    const n = chance(0.1) ? 0 : 1 + int(7);
    for (let i = 0; i < n; i++) {
      const type = pick(TYPES);
      const ids = idColumn(type, pool, separator);
      if (ids) pool.push(...ids.split(separator).filter((x) => x !== '-1'));
      anns.push({ doc: d.id, ...span(d), type, ids });
      if (chance(0.1)) anns.push({ ...anns[anns.length - 1] });
    }
  }
  return anns;
}

/** The run: gold mentions kept, moved, retyped or given other ids, and mentions of its own. */
function runAnnotations(docs: Doc[], gold: Ann[], separator: string): Ann[] {
  const anns: Ann[] = [];
  for (const g of gold) {
    if (chance(0.2)) continue;
    const a = { ...g, individual: undefined };
    const d = docs.find((x) => x.id === g.doc)!;
    if (chance(0.15)) Object.assign(a, span(d));
    const retyped = chance(0.1) ? pick(TYPES) : a.type;
    if (retyped !== a.type) Object.assign(a, { type: retyped, ids: idColumn(retyped, [], separator) });
    else if (chance(0.25)) a.ids = idColumn(a.type, g.ids ? g.ids.split(separator) : [], separator);
    if (chance(0.15) && a.ids && !a.ids.includes(':') && /^D\d+$/.test(a.ids)) a.ids = `MESH:${a.ids}`;
    if (chance(0.1) && a.end - a.start > 1) a.end -= 1;
    anns.push(a);
  }
  for (const d of docs) {
    for (let i = int(3); i > 0; i--) {
      const type = pick(TYPES);
      anns.push({ doc: d.id, ...span(d), type, ids: idColumn(type, [], separator) });
    }
  }
  return anns;
}

function pubtator(docs: Doc[], anns: Ann[]): string {
  return docs
    .map((d) => {
      const text = documentText(d);
      const lines = [`${d.id}|t|${d.title}`, `${d.id}|a|${d.abstract}`];
      for (const a of anns.filter((x) => x.doc === d.id && !x.individual)) {
        const columns = [d.id, a.start, a.end, text.slice(a.start, a.end), a.type, ...(a.ids === undefined ? [] : [a.ids])];
        lines.push(columns.join('\t'));
      }
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

const xmlText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function biocAnnotation(a: Ann, n: number, text: string): string {
  const infons = [`<infon key="type">${a.type}</infon>`];
  // BC5CDR's key names MeSH: a gene's bare numbers stand under `identifier` only (the jar then reads no id for it).
  if (a.ids !== undefined && a.type !== 'Gene') infons.push(`<infon key="MESH">${xmlText(a.ids)}</infon>`);
  if (a.ids !== undefined) infons.push(`<infon key="identifier">${xmlText(a.ids)}</infon>`);
  if (a.individual) infons.push('<infon key="CompositeRole">IndividualMention</infon>');
  return `<annotation id="${n}">${infons.join('')}<location offset="${a.start}" length="${a.end - a.start}"/><text>${xmlText(text.slice(a.start, a.end))}</text></annotation>`;
}

function bioc(docs: Doc[], anns: Ann[]): string {
  let n = 0;
  const documents = docs.map((d) => {
    const text = documentText(d);
    const passages = [
      { offset: 0, text: d.title, name: 'title' },
      { offset: d.title.length + 1, text: d.abstract, name: 'abstract' },
    ].map((p) => {
      // Spans never cross the two passages (norm-cases writes them inside one).
      const inTitle = (a: Ann): boolean => a.end <= d.title.length;
      const own = anns.filter((a) => a.doc === d.id && (p.offset === 0) === inTitle(a));
      return `<passage><infon key="type">${p.name}</infon><offset>${p.offset}</offset><text>${xmlText(p.text)}</text>${own.map((a) => biocAnnotation(a, ++n, text)).join('')}</passage>`;
    });
    return `<document><id>${d.id}</id>${passages.join('')}</document>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<collection><source>norm-cases</source><date>2026</date><key>norm.key</key>${documents.join('')}</collection>\n`;
}

/** BC5CDR's BioC lists each part of a composite mention again as an IndividualMention. */
function addIndividuals(anns: Ann[], separator: string): Ann[] {
  const extra = anns
    .filter((a) => a.ids?.includes(separator) && a.end - a.start > 2 && chance(0.5))
    .map((a) => ({ ...a, end: a.start + 1 + int(a.end - a.start - 1), ids: a.ids!.split(separator)[0], individual: true }));
  return [...anns, ...extra];
}

function makeCase(dir: string): void {
  const count = 1 + int(4);
  const docs: Doc[] = [...new Set(Array.from({ length: count }, () => String(1000 + int(9000))))].map((id) => ({
    id,
    title: `${sentence(3 + int(4))}.`,
    abstract: sentence(8 + int(20)),
  }));
  const separator = chance(0.3) ? ',' : '|';
  const gold = addIndividuals(goldAnnotations(docs, separator), separator);
  let run = addIndividuals(runAnnotations(docs, gold, separator), separator);
  // A run without one of the gold's documents, or with one the gold lacks.
  let runDocs = docs;
  if (docs.length > 1 && chance(0.15)) {
    const dropped = pick(docs).id;
    runDocs = docs.filter((d) => d.id !== dropped);
    run = run.filter((a) => a.doc !== dropped);
  }
  if (chance(0.1)) {
    const extra: Doc = { id: String(10000 + int(90000)), title: `${sentence(3)}.`, abstract: sentence(10) };
    runDocs = [...runDocs, extra];
    run = [...run, { doc: extra.id, ...span(extra), type: 'Disease', ids: 'D000001' }];
  }
  const type = chance(0.3) ? '' : pick(TYPES);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gold.pubtator'), pubtator(docs, gold));
  writeFileSync(join(dir, 'run.pubtator'), pubtator(runDocs, run));
  writeFileSync(join(dir, 'gold.xml'), bioc(docs, gold));
  writeFileSync(join(dir, 'run.xml'), bioc(runDocs, run));
  writeFileSync(join(dir, 'type.txt'), type);
}

const total = Number(countArg);
for (let i = 1; i <= total; i++) makeCase(join(out, `case-${String(i).padStart(4, '0')}`));
console.log(`${total} cases in ${out}`);
