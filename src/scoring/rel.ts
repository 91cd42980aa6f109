// Relation extraction between given entities, scored as the DrugProt evaluation library
// (BioCreative VII track 1: `src/main.py`, `utils.py`, `compute_metrics.py`) scores it.
// Its rules, read from its source (each has a worked example in test/scoring/rel.unit.test.ts;
// src/scoring/README.md, section on the DrugProt library, says where we differ and why):
//
//  1. Prediction lines whose pmid is not in the pmids list are dropped before reading.
//     The gold is not filtered by that list.
//  2. Lines of a type outside the relation types are dropped (gold and prediction).
//  3. Lines repeated exactly are counted once.
//  4. A relation must join one CHEMICAL entity (by `pmid-id`, the id after the last `:` of
//     the argument) and one other argument; lines with two chemicals or none are dropped,
//     but only when there are at least two such lines in the file (the library drops them
//     with `if len(skip) > 1`: a single one stays). The chemical is the chemical argument
//     and the gene the other one, so `Arg1:T2 Arg2:T1` is `Arg1:T1 Arg2:T2`; a second
//     relation that becomes the same (pmid, type, chemical, gene) is counted once.
//  5. Only relations on a (CHEMICAL, GENE) pair of the entities file count: every
//     document's pairs are the product of its CHEMICAL and GENE entities (file order, of
//     the last contiguous block of lines of that pmid). A relation naming an entity the
//     entities file lacks is neither a false positive nor a false negative.
//  6. Each type is a row of 0/1 cells over all pairs, documents in pmid (string) order.
//     The library moves to the next document's cells by the index of the last pair, not
//     their number, so a document's last pair and the next document's first pair share a
//     cell (a document with one pair shares it with both neighbours).
//  7. Micro P/R/F over every cell (sklearn, average='micro'; 0 where undefined); when the
//     entities give exactly one pair, sklearn takes the 13×1 matrix as one binary column
//     and micro-averages over the classes 0 and 1: P = R = F = share of equal cells.
//  8. Per type (binary, zero_division=0) for the types the prepared gold has.
//
// Where the library stops without a figure we score (README): GENE-Y and GENE-N entities
// of a file without any GENE (the DrugProt corpus's own files) are GENE; a side with no relation left scores 0, also
// where rule 7's one-pair reading would give the share of equal cells.

import { f1, safeRatio } from './metrics.ts';
import type { RelEntity, RelRelation } from './rel-input.ts';
import { codePointOrder } from '../shared/code-points.ts';

/** DrugProt's 13 relation types, in the library's order (its per-type report follows it). */
export const DRUGPROT_RELATION_TYPES = [
  'INDIRECT-DOWNREGULATOR',
  'INDIRECT-UPREGULATOR',
  'DIRECT-REGULATOR',
  'ACTIVATOR',
  'INHIBITOR',
  'AGONIST',
  'AGONIST-ACTIVATOR',
  'AGONIST-INHIBITOR',
  'ANTAGONIST',
  'PRODUCT-OF',
  'SUBSTRATE',
  'SUBSTRATE_PRODUCT-OF',
  'PART-OF',
] as const;

/** The entity types DrugProt's library pairs: a relation joins a CHEMICAL and a GENE. */
export const DRUGPROT_CHEMICAL = 'CHEMICAL';
export const DRUGPROT_GENE = 'GENE';
/** The DrugProt corpus's gene types (normalisable or not); the library knows only GENE and stops on them. */
export const DRUGPROT_GENE_SUBTYPES: readonly string[] = ['GENE-Y', 'GENE-N'];

/**
 * The types the pairing sees. In a file without any GENE entity (the DrugProt corpus's own
 * files), GENE-Y and GENE-N are GENE: the library finds no pair there and stops, so there is
 * no figure of its to follow. In a file that also has GENE, the library runs and leaves them
 * out with a warning, and so do we.
 */
export function pairingTypes(entities: readonly RelEntity[]): (type: string) => string {
  if (entities.some((e) => e.type === DRUGPROT_GENE)) return (type) => type;
  return (type) => (DRUGPROT_GENE_SUBTYPES.includes(type) ? DRUGPROT_GENE : type);
}

export interface RelCounts {
  tp: number;
  fp: number;
  fn: number;
  p: number;
  r: number;
  f: number;
}

export interface RelScore {
  micro: RelCounts;
  /** Types the gold has after reading (rule 8), in the types' order. */
  perType: Record<string, RelCounts>;
  /** Relations left after reading (rules 1–4), and of those, the ones on a pair (rule 5). */
  gold: { relations: number; onPairs: number };
  predicted: { relations: number; onPairs: number };
  /** (CHEMICAL, GENE) pairs of the entities (the library's NCOMB). */
  pairs: number;
}

export interface RelScoreInput {
  entities: readonly RelEntity[];
  gold: readonly RelRelation[];
  predicted: readonly RelRelation[];
  /** Documents whose predictions count (rule 1); absent: every pmid of the entities. */
  pmids?: ReadonlySet<string>;
  /** Relation types (rule 2); DrugProt's 13 by default. */
  types?: readonly string[];
}

/** What reading dropped, for notes: lines per reason. */
export interface RelReadNotes {
  offList: number;
  unknownType: number;
  duplicates: number;
  notChemicalGene: number;
  /** Rule 4's quirk: a single line with two chemicals or none stays. */
  keptSingleBadLine: boolean;
  notOnPair: number;
}

interface PreparedRelation {
  pmid: string;
  type: string;
  chemical: string;
  gene: string;
}

const lastPart = (arg: string): string => arg.slice(arg.lastIndexOf(':') + 1);

/** Rules 1–4: one side's relations as (pmid, type, chemical, gene), each once. */
function prepare(
  relations: readonly RelRelation[],
  chemicals: ReadonlySet<string>,
  types: ReadonlySet<string>,
  pmids: ReadonlySet<string> | undefined,
  notes: RelReadNotes,
): PreparedRelation[] {
  const lines = new Set<string>();
  const rows: Array<{ r: RelRelation; chem1: boolean; chem2: boolean }> = [];
  for (const r of relations) {
    if (pmids && !pmids.has(r.pmid)) {
      notes.offList++;
      continue;
    }
    if (!types.has(r.type)) {
      notes.unknownType++;
      continue;
    }
    const key = `${r.pmid}\t${r.type}\t${r.arg1}\t${r.arg2}`;
    if (lines.has(key)) {
      notes.duplicates++;
      continue;
    }
    lines.add(key);
    rows.push({ r, chem1: chemicals.has(`${r.pmid}-${lastPart(r.arg1)}`), chem2: chemicals.has(`${r.pmid}-${lastPart(r.arg2)}`) });
  }
  const bad = rows.filter((x) => x.chem1 === x.chem2).length;
  const kept = bad > 1 ? rows.filter((x) => x.chem1 !== x.chem2) : rows;
  notes.notChemicalGene += bad > 1 ? bad : 0;
  if (bad === 1) notes.keptSingleBadLine = true;
  const seen = new Set<string>();
  const prepared: PreparedRelation[] = [];
  for (const { r, chem1 } of kept) {
    const chemical = lastPart(chem1 ? r.arg1 : r.arg2);
    const gene = lastPart(chem1 ? r.arg2 : r.arg1);
    const key = `${r.pmid}\t${r.type}\t${chemical}\t${gene}`;
    if (seen.has(key)) {
      notes.duplicates++;
      continue;
    }
    seen.add(key);
    prepared.push({ pmid: r.pmid, type: r.type, chemical, gene });
  }
  return prepared;
}

interface DocumentPairs {
  chemicals: string[];
  genes: string[];
  /** The document's first cell (rule 6). */
  base: number;
}

/** Rule 5 and 6: the documents' pairs and where their cells start; the chemicals by `pmid-id`. */
function pairsOf(entities: readonly RelEntity[]): { docs: Map<string, DocumentPairs>; chemicals: Set<string>; pairs: number } {
  const docs = new Map<string, DocumentPairs>();
  const lastType = new Map<string, string>();
  let current: DocumentPairs | undefined;
  let currentPmid: string | undefined;
  const pairingType = pairingTypes(entities);
  for (const e of entities) {
    if (e.pmid !== currentPmid) {
      // A pmid seen again after another one starts afresh: the library's dictionary keeps
      // the last block of lines of each pmid.
      current = { chemicals: [], genes: [], base: 0 };
      docs.set(e.pmid, current);
      currentPmid = e.pmid;
    }
    const type = pairingType(e.type);
    if (type === DRUGPROT_CHEMICAL) current!.chemicals.push(e.id);
    else if (type === DRUGPROT_GENE) current!.genes.push(e.id);
    lastType.set(`${e.pmid}-${e.id}`, type);
  }
  const chemicals = new Set([...lastType].filter(([, type]) => type === DRUGPROT_CHEMICAL).map(([key]) => key));
  let pairs = 0;
  let next = 0;
  for (const pmid of [...docs.keys()].sort(codePointOrder)) {
    const doc = docs.get(pmid)!;
    const n = doc.chemicals.length * doc.genes.length;
    pairs += n;
    if (n === 0) continue;
    doc.base = next;
    next += n - 1;
  }
  return { docs, chemicals, pairs };
}

/** The cells (type index → positions) the relations fill, and how many relations fell on a pair. */
function cellsOf(
  relations: readonly PreparedRelation[],
  docs: ReadonlyMap<string, DocumentPairs>,
  typeIndex: ReadonlyMap<string, number>,
): { cells: Array<Set<number>>; onPairs: number } {
  const cells = [...typeIndex.keys()].map(() => new Set<number>());
  let onPairs = 0;
  for (const r of relations) {
    const doc = docs.get(r.pmid);
    if (!doc) continue;
    let on = false;
    doc.chemicals.forEach((chemical, i) => {
      if (chemical !== r.chemical) return;
      doc.genes.forEach((gene, j) => {
        if (gene !== r.gene) return;
        cells[typeIndex.get(r.type)!].add(doc.base + i * doc.genes.length + j);
        on = true;
      });
    });
    if (on) onPairs++;
  }
  return { cells, onPairs };
}

function counts(tp: number, predicted: number, gold: number): RelCounts {
  const p = safeRatio(tp, predicted);
  const r = safeRatio(tp, gold);
  return { tp, fp: predicted - tp, fn: gold - tp, p, r, f: f1(p, r) };
}

const intersection = (a: ReadonlySet<number>, b: ReadonlySet<number>): number => [...a].filter((x) => b.has(x)).length;

export function emptyRelNotes(): RelReadNotes {
  return { offList: 0, unknownType: 0, duplicates: 0, notChemicalGene: 0, keptSingleBadLine: false, notOnPair: 0 };
}

/** Scores one prediction; `notes` (if given) receive what reading dropped from gold and prediction. */
export function scoreRelations(input: RelScoreInput, notes: { gold?: RelReadNotes; predicted?: RelReadNotes } = {}): RelScore {
  const types = input.types ?? DRUGPROT_RELATION_TYPES;
  const typeIndex = new Map(types.map((t, i) => [t, i]));
  const typeSet = new Set(types);
  const { docs, chemicals, pairs } = pairsOf(input.entities);
  const pmids = input.pmids ?? new Set(input.entities.map((e) => e.pmid));
  const goldNotes = notes.gold ?? emptyRelNotes();
  const predNotes = notes.predicted ?? emptyRelNotes();
  const gold = prepare(input.gold, chemicals, typeSet, undefined, goldNotes);
  const predicted = prepare(input.predicted, chemicals, typeSet, pmids, predNotes);
  const g = cellsOf(gold, docs, typeIndex);
  const p = cellsOf(predicted, docs, typeIndex);
  goldNotes.notOnPair += gold.length - g.onPairs;
  predNotes.notOnPair += predicted.length - p.onPairs;

  let tp = 0;
  let goldCells = 0;
  let predCells = 0;
  types.forEach((_, i) => {
    tp += intersection(g.cells[i], p.cells[i]);
    goldCells += g.cells[i].size;
    predCells += p.cells[i].size;
  });
  let micro = counts(tp, predCells, goldCells);
  if (pairs === 1 && gold.length > 0 && predicted.length > 0) {
    // Rule 7: one column; both classes (0 and 1) micro-averaged is the share of equal cells.
    // (With a side empty the library stops; we keep P = R = F = 0, as everywhere else.)
    const equal = types.length - (predCells - tp) - (goldCells - tp);
    const share = safeRatio(equal, types.length);
    micro = { ...micro, p: share, r: share, f: share };
  }
  const goldTypes = new Set(gold.map((r) => r.type));
  const perType: Record<string, RelCounts> = {};
  types.forEach((type, i) => {
    if (goldTypes.has(type)) perType[type] = counts(intersection(g.cells[i], p.cells[i]), p.cells[i].size, g.cells[i].size);
  });
  return {
    micro,
    perType,
    gold: { relations: gold.length, onPairs: g.onPairs },
    predicted: { relations: predicted.length, onPairs: p.onPairs },
    pairs,
  };
}
