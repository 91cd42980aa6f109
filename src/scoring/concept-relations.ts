// Relations between the concepts of a document, scored two ways (no task names here; the
// family adapts them, README.md "Relations between concepts"):
//
// - BC5CDR's `eval_relation.sh` (BC5CDR_Evaluation-0.0.3, `Evaluate relation CID`): each
//   relation is the string (document, type, id1, id2) with the ids in the order written
//   (chemical, disease) and bare ids prefixed `MESH:` (`-1` or empty: `null`); gold and
//   prediction are sets of those strings; predictions of documents without a gold relation
//   are dropped; TP, FP, FN counted over the sets. The tool prints NaN for 0/0; we print 0.
// - BioRED (BioCreative VIII track 1): four settings over the unordered concept pairs of a
//   document, micro-averaged: the pair; the pair and its type; the pair and its novelty;
//   all three. No official script is published: the rules are the track's description,
//   and where it is silent our choices are listed in README.md.

import { prfCounts, type PrfCounts } from './metrics.ts';
import { ScoringInputError } from './errors.ts';

export type RelationCounts = PrfCounts;

/** Counts and P/R/F of a gold set against a predicted set of keys. */
export function countSets(gold: ReadonlySet<string>, predicted: ReadonlySet<string>): RelationCounts {
  let tp = 0;
  for (const key of gold) if (predicted.has(key)) tp++;
  return prfCounts(tp, predicted.size - tp, gold.size - tp);
}

// ── BC5CDR eval_relation.sh ─────────────────────────────────────────────────────────────

/** One relation as the BC5CDR tool reads it: ids as written (`finalizeConceptId` applies when keyed). */
export interface CidRelation {
  doc: string;
  type: string;
  /** The chemical's id (PubTator's third column, BioC's `Chemical` infon); undefined when absent. */
  id1?: string;
  /** The disease's id (fourth column, `Disease` infon). */
  id2?: string;
}

/** The tool's `finalizeConceptId`: none for absent, empty or `-1`; an id with a colon as is; else `MESH:` + id. */
export function cidConceptId(id: string | undefined): string {
  if (id === undefined || id === '' || id === '-1') return 'null';
  return id.includes(':') ? id : `MESH:${id}`;
}

/** The tool's key of a relation (it compares these strings). */
export const cidKey = (r: CidRelation): string => `relation\t${r.doc}\t${r.type}\t${cidConceptId(r.id1)}\t${cidConceptId(r.id2)}`;

/** Java's String.trim: code units up to U+0020 at both ends. */
const javaTrim = (s: string): string => s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');

/** Java's String.split("\t"): trailing empty fields removed. */
function javaSplitTab(s: string): string[] {
  const parts = s.split('\t');
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const DIGITS = /^[0-9]+$/;
const INT_MAX = 2147483647;

/**
 * PubTator text as the tool's `loadPubTator` reads relations: each line trimmed; empty
 * lines and lines holding `|t|`, `|T|`, `|a|` or `|A|` skipped; a line whose second and
 * third fields are digits is a mention (its offsets must be Java ints and its type, the
 * fifth field, present: the tool reads them); any other line whose second field is one of `types` is a relation on fields 1, 3
 * and 4. Lines the tool stops on (too few fields, offsets past 2³¹−1) are refused with
 * their line number, as the tool gives up on the file.
 */
export function readCidPubTator(text: string, types: ReadonlySet<string>, file?: string): CidRelation[] {
  const relations: CidRelation[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = javaTrim(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (line.length === 0 || /\|[tTaA]\|/.test(line)) return;
    const f = javaSplitTab(line);
    const stop = (why: string): never => {
      throw new ScoringInputError(`${why}; BC5CDR's evaluation stops on this line ("Error on line")`, {
        file,
        line: i + 1,
        hint: 'a relation line is PMID<TAB>CID<TAB>chemical id<TAB>disease id',
      });
    };
    if (f.length < 2) stop('the line has one field');
    if (DIGITS.test(f[1]) && f.length > 2 && DIGITS.test(f[2])) {
      if (Number(f[1]) > INT_MAX || Number(f[2]) > INT_MAX) stop('a mention offset is past 2147483647');
      if (f.length < 5) stop(`a mention line has ${f.length} fields; the tool reads the type in the fifth`);
      return;
    }
    if (DIGITS.test(f[1]) && f.length === 2) stop('a mention line without its end offset');
    if (!types.has(f[1])) return;
    if (f.length < 4) stop(`a ${f[1]} relation line has ${f.length} fields, not 4`);
    relations.push({ doc: f[0], type: f[1], id1: f[2], id2: f[3] });
  });
  return relations;
}

/** A BioC relation's (or document-level annotation's) infons, with its document: what the tool reads from BioC. */
export interface CidBiocRecord {
  doc: string;
  infons: Readonly<Record<string, string>>;
}

/**
 * BioC as the tool's `loadBioC` reads relations: document-level annotations and document
 * relations (not those of passages) whose `relation` infon is one of `types`, the ids in
 * the `Chemical` and `Disease` infons.
 */
export function readCidBioc(records: readonly CidBiocRecord[], types: ReadonlySet<string>): CidRelation[] {
  return records.flatMap(({ doc, infons }) =>
    infons.relation !== undefined && types.has(infons.relation)
      ? [{ doc, type: infons.relation, id1: infons.Chemical, id2: infons.Disease }]
      : [],
  );
}

/** `eval_relation.sh`: sets of keys, predictions of documents without a gold relation dropped. */
export function scoreCid(gold: readonly CidRelation[], predicted: readonly CidRelation[]): RelationCounts {
  const goldKeys = new Set(gold.map(cidKey));
  const goldDocs = new Set(gold.map((r) => r.doc));
  const predictedKeys = new Set(predicted.filter((r) => goldDocs.has(r.doc)).map(cidKey));
  return countSets(goldKeys, predictedKeys);
}

// ── BioRED's four settings ──────────────────────────────────────────────────────────────

/** A relation between two concepts of a document, ids in one form on both sides (stored `NS:accession`). */
export interface ConceptRelation {
  doc: string;
  type: string;
  concept1: string;
  concept2: string;
  /** `Novel` or `No`; absent when not given. */
  novelty?: string;
}

export const BIORED_SETTINGS = ['pair', 'pairType', 'pairNovelty', 'all'] as const;
export type BioredSetting = (typeof BIORED_SETTINGS)[number];

export type BioredScore = Record<BioredSetting, RelationCounts>;

/** The unordered pair of a relation's concepts, in string order. */
export function orderedPair(a: string, b: string): [string, string] {
  return a <= b ? [a, b] : [b, a];
}

/** The key of a relation under a setting: the document and the unordered pair, with the type, the novelty, or both. */
export function bioredKey(r: ConceptRelation, setting: BioredSetting): string {
  const [c1, c2] = orderedPair(r.concept1, r.concept2);
  const parts = [r.doc, c1, c2];
  if (setting === 'pairType' || setting === 'all') parts.push(r.type);
  if (setting === 'pairNovelty' || setting === 'all') parts.push(r.novelty ?? '');
  return parts.join('\t');
}

/**
 * The four settings, each micro-averaged over every document: a relation is a key of its
 * setting, a set on each side (the same key twice counts once).
 */
export function scoreBiored(gold: readonly ConceptRelation[], predicted: readonly ConceptRelation[]): BioredScore {
  const score = {} as BioredScore;
  for (const setting of BIORED_SETTINGS) {
    score[setting] = countSets(new Set(gold.map((r) => bioredKey(r, setting))), new Set(predicted.map((r) => bioredKey(r, setting))));
  }
  return score;
}
