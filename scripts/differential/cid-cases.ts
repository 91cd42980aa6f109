// Writes seeded random BC5CDR relation cases for a differential run of `metaserver score CID`
// against BC5CDR's eval_relation.sh (BC5CDR_Evaluation-0.0.3, fetched separately, never kept here):
//   npx tsx scripts/differential/cid-cases.ts OUT_DIR [COUNT=300] [SEED=cid]
// Each case folder holds gold.pubtator, run.pubtator, gold.bioc.xml and run.bioc.xml: the
// same relations in both formats, so each case is scored twice. The cases reach every rule
// of the tool's reading (src/scoring/concept-relations.ts): bare ids (`MESH:` prefixed),
// ids with another namespace, `-1` and empty ids (`null`), the same relation twice, the
// chemical and disease swapped, relation types other than CID (`cid`, `Association`),
// a confidence in the fifth column, white space around lines and fields, CRLF, trailing
// TABs, title/abstract and mention lines, run relations of documents without a gold
// relation (dropped), documents on one side only; in BioC, relations of passages (not
// read), document-level annotations with a `relation` infon (read), relations without a
// Chemical or Disease infon. A few PubTator cases hold a line the tool stops on (one
// field, a mention line of four fields, a CID line of three): both must refuse them.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/shared/prng.ts';

const [out, countArg = '300', seed = 'cid'] = process.argv.slice(2);
if (!out) {
  console.error('usage: cid-cases.ts OUT_DIR [COUNT] [SEED]');
  process.exit(2);
}
const random = seededRandom(seed);
const int = (n: number): number => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
const chance = (p: number): boolean => random() < p;

interface Rel {
  doc: string;
  type: string;
  chem?: string;
  dis?: string;
  /** BioC only: where the relation stands. */
  place: 'document' | 'passage' | 'docAnnotation';
  confidence?: string;
}

const CHEMICALS = ['D008750', 'D008012', 'D007069', 'C012345', 'MESH:D008750', 'D004317', 'CHEBI:15377', '-1', ''];
const DISEASES = ['D003866', 'D006323', 'D007674', 'MESH:D003866', 'OMIM:114480', 'C535700', '-1', ''];

function relationsOf(docs: readonly string[], bioc: boolean): Rel[] {
  const rels: Rel[] = [];
  for (const doc of docs) {
    const n = int(5);
    for (let i = 0; i < n; i++) {
      const type = chance(0.85) ? 'CID' : pick(['cid', 'Association', 'CID ']);
      const r: Rel = { doc, type, chem: pick(CHEMICALS), dis: pick(DISEASES), place: 'document' };
      if (chance(0.1)) [r.chem, r.dis] = [r.dis, r.chem];
      if (bioc && chance(0.1)) r.place = pick(['passage', 'docAnnotation'] as const);
      if (bioc && chance(0.05)) r.chem = undefined;
      if (chance(0.2)) r.confidence = String(random().toFixed(3));
      rels.push(r);
      if (chance(0.1)) rels.push({ ...r });
    }
  }
  return rels;
}

/** A run close to the gold: most of its relations, some changed, some new. */
function runOf(gold: readonly Rel[], docs: readonly string[], bioc: boolean): Rel[] {
  const kept = gold.filter(() => chance(0.7)).map((r) => (chance(0.15) ? { ...r, dis: pick(DISEASES) } : { ...r }));
  return [
    ...kept,
    ...relationsOf(
      docs.filter(() => chance(0.4)),
      bioc,
    ),
  ];
}

const TITLE = 'A title about methyl dopa and depression.';

function pubtatorLine(r: Rel): string {
  // An empty last field would make a line of three fields, which the tool stops on: those come from `broken` alone.
  const last = r.confidence === undefined && (r.dis ?? '') === '' ? '-1' : (r.dis ?? '');
  const fields = [r.doc, r.type, r.chem ?? '', last, ...(r.confidence ? [r.confidence] : [])];
  let line = fields.join('\t');
  if (chance(0.05)) line = `  ${line}`;
  if (chance(0.05)) line = `${line}\t\t`;
  if (chance(0.05)) line = `${line} `;
  return line;
}

function pubtator(docs: readonly string[], rels: readonly Rel[], broken: boolean): string {
  const eol = chance(0.1) ? '\r\n' : '\n';
  const blocks = docs.map((doc) => {
    const lines = [`${doc}|t|${TITLE}`, `${doc}|a|Depression after methyl dopa.`];
    if (chance(0.5)) lines.push(`${doc}\t27\t37\tdepression\tDisease\tD003866`);
    if (chance(0.3)) lines.push(`${doc}\t0\t5\tA tit\tChemical`);
    lines.push(...rels.filter((r) => r.doc === doc && r.place === 'document').map(pubtatorLine));
    return lines.join(eol);
  });
  if (broken) blocks.push(pick(['lonely', `${docs[0]}\t1\t2\tx`, `${docs[0]}\tCID\tD008750`]));
  return blocks.join(eol + eol) + eol;
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&apos;');

function infons(r: Rel): string {
  const pairs: Array<[string, string | undefined]> = [
    ['relation', r.type],
    ['Chemical', r.chem],
    ['Disease', r.dis],
  ];
  return pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<infon key='${k}'>${xml(v!)}</infon>`)
    .join('');
}

function bioc(docs: readonly string[], rels: readonly Rel[]): string {
  let n = 0;
  const documents = docs.map((doc) => {
    const mine = rels.filter((r) => r.doc === doc);
    const relation = (r: Rel) => `<relation id='R${n++}'>${infons(r)}</relation>`;
    const annotation = (r: Rel) => `<annotation id='A${n++}'>${infons(r)}</annotation>`;
    const passage = `<passage><infon key='type'>title</infon><offset>0</offset><text>${xml(TITLE)}</text>${mine
      .filter((r) => r.place === 'passage')
      .map(relation)
      .join('')}</passage>`;
    const docAnnotations = mine.filter((r) => r.place === 'docAnnotation').map(annotation);
    const docRelations = mine.filter((r) => r.place === 'document').map(relation);
    return `<document><id>${doc}</id>${passage}${docAnnotations.join('')}${docRelations.join('')}</document>`;
  });
  return `<?xml version='1.0' encoding='UTF-8'?>\n<collection><source>cases</source><date>0</date><key>k</key>${documents.join('\n')}</collection>\n`;
}

const count = Number(countArg);
for (let k = 1; k <= count; k++) {
  const all = Array.from({ length: 1 + int(5) }, () => String(1000 + int(9000)));
  const docs = [...new Set(all)];
  const goldDocs = docs.filter((_, i) => i === 0 || chance(0.8));
  const runDocs = docs.filter(() => chance(0.8));
  const broken = chance(0.03);
  const dir = join(out, `case-${String(k).padStart(3, '0')}`);
  mkdirSync(dir, { recursive: true });
  const goldRelations = relationsOf(goldDocs, false);
  const runRelations = runOf(goldRelations, runDocs, false);
  writeFileSync(join(dir, 'gold.pubtator'), pubtator(goldDocs, goldRelations, false));
  writeFileSync(join(dir, 'run.pubtator'), pubtator(runDocs, runRelations, broken));
  const goldBioc = relationsOf(goldDocs, true);
  writeFileSync(join(dir, 'gold.bioc.xml'), bioc(goldDocs, goldBioc));
  writeFileSync(join(dir, 'run.bioc.xml'), bioc(runDocs, runOf(goldBioc, runDocs, true)));
}
console.log(`${count} cases in ${out}`);
