// Writes seeded random DrugProt cases for a differential run of `metaserver score REL`
// against the official DrugProt evaluation library (fetched separately, never kept here):
//   npx tsx scripts/differential/rel-cases.ts OUT_DIR [COUNT=300] [SEED=rel]
// Each case folder holds entities.tsv, gold.tsv, pred.tsv and pmids.txt. The cases reach
// every rule of src/scoring/rel.ts: repeated lines, arguments swapped or written bare
// (`T3`), types outside the 13, arguments the entities lack, two chemicals or two genes
// (once, or several times in a file), other entity types, documents missing from the
// prediction or from the pmids list, a pmid whose entity lines come in two blocks, and
// corpora with a single (CHEMICAL, GENE) pair. Cases without any pair, or without a
// prediction line for a listed document, are not written: the official library stops on
// them with a Python error. Cases where one side has no relation left after its checks are
// written: the library stops on those too (a pandas error), which the comparison counts
// apart (src/scoring/README.md lists each such case and what we do instead).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/shared/prng.ts';
import { DRUGPROT_RELATION_TYPES } from '../../src/scoring/rel.ts';

const [out, countArg = '300', seed = 'rel'] = process.argv.slice(2);
if (!out) {
  console.error('usage: rel-cases.ts OUT_DIR [COUNT] [SEED]');
  process.exit(2);
}
const random = seededRandom(seed);
const int = (n: number): number => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
const chance = (p: number): boolean => random() < p;

interface Entity {
  pmid: string;
  id: string;
  type: string;
}
interface Relation {
  pmid: string;
  type: string;
  a1: string;
  a2: string;
}

function makeCase(): { entities: string; gold: string; pred: string; pmids: string } | undefined {
  const tiny = chance(0.05);
  const docCount = tiny ? 1 : 1 + int(6);
  const pmids = Array.from({ length: docCount }, () => String(10000 + int(90000)));
  const docs = [...new Set(pmids)];
  const entities: Entity[] = [];
  const byDoc = new Map<string, Entity[]>();
  for (const pmid of docs) {
    const n = tiny ? 2 : 1 + int(8);
    const list: Entity[] = [];
    for (let i = 1; i <= n; i++) {
      const type = tiny
        ? i === 1
          ? 'CHEMICAL'
          : 'GENE'
        : chance(0.05)
          ? pick(['GENE-Y', 'GENE-N', 'DISEASE'])
          : chance(0.5)
            ? 'CHEMICAL'
            : 'GENE';
      list.push({ pmid, id: `T${i}`, type });
    }
    byDoc.set(pmid, list);
    entities.push(...list);
  }
  // Now and then a document's entity lines come in two blocks (the library keeps the last one).
  if (docs.length > 1 && chance(0.05)) {
    const moved = entities.splice(int(entities.length), 1)[0];
    entities.push(moved);
  }
  const types = [...DRUGPROT_RELATION_TYPES];
  const relation = (pmid: string): Relation => {
    const list = byDoc.get(pmid)!;
    const chems = list.filter((e) => e.type === 'CHEMICAL');
    const others = list.filter((e) => e.type !== 'CHEMICAL');
    const odd = chance(0.04);
    const a1 = odd || chems.length === 0 ? pick(list).id : pick(chems).id;
    const a2 = odd || others.length === 0 ? pick(list).id : pick(others).id;
    return { pmid, type: pick(types.slice(0, chance(0.5) ? 4 : 13)), a1, a2 };
  };
  const gold: Relation[] = [];
  for (const pmid of docs) for (let k = int(5); k > 0; k--) gold.push(relation(pmid));
  if (gold.length === 0) return undefined;
  if (!docs.some((pmid) => byDoc.get(pmid)!.some((e) => e.type === 'CHEMICAL') && byDoc.get(pmid)!.some((e) => e.type === 'GENE')))
    return undefined;
  const pred: Relation[] = [];
  const predDocs = docs.filter(() => chance(0.85));
  for (const g of gold) {
    if (!predDocs.includes(g.pmid) || chance(0.3)) continue;
    pred.push(chance(0.2) ? { ...g, type: pick(types) } : g);
  }
  for (const pmid of predDocs) for (let k = int(3); k > 0; k--) pred.push(relation(pmid));
  if (chance(0.15)) pred.push({ pmid: pick(docs), type: 'NOT-A-TYPE', a1: 'T1', a2: 'T2' });
  if (chance(0.1)) pred.push({ pmid: pick(docs), type: pick(types), a1: 'T1', a2: 'T99' });
  if (chance(0.1)) pred.push({ pmid: '99999999', type: pick(types), a1: 'T1', a2: 'T2' });
  if (chance(0.1) && pred.length > 0) pred.push(pick(pred));
  if (chance(0.1) && gold.length > 0) gold.push(pick(gold));
  const line = (r: Relation): string => {
    const swap = chance(0.1);
    const [x, y] = swap ? [r.a2, r.a1] : [r.a1, r.a2];
    const arg = (role: string, id: string) => (chance(0.05) ? id : `${role}:${id}`);
    return `${r.pmid}\t${r.type}\t${arg('Arg1', x)}\t${arg('Arg2', y)}\n`;
  };
  const listed = docs.filter(() => chance(0.9));
  if (listed.length === 0) listed.push(docs[0]);
  return {
    entities: entities.map((e, i) => `${e.pmid}\t${e.id}\t${e.type}\t${i * 10}\t${i * 10 + 5}\tw${i}\n`).join(''),
    gold: gold.map(line).join(''),
    pred: pred.map(line).join(''),
    pmids: listed.map((p) => `${p}\n`).join(''),
  };
}

let written = 0;
let tries = 0;
while (written < Number(countArg) && tries < Number(countArg) * 20) {
  tries++;
  const c = makeCase();
  if (!c) continue;
  const listed = new Set(c.pmids.trim().split('\n'));
  // The library stops on a prediction with no line left for the listed documents.
  if (!c.pred.split('\n').some((l) => listed.has(l.split('\t')[0]))) continue;
  const dir = join(out, `case-${String(written).padStart(3, '0')}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'entities.tsv'), c.entities);
  writeFileSync(join(dir, 'gold.tsv'), c.gold);
  writeFileSync(join(dir, 'pred.tsv'), c.pred);
  writeFileSync(join(dir, 'pmids.txt'), c.pmids);
  written++;
}
console.log(`${written} cases in ${out}`);
