// IPT: interaction pairs, `pairs` = array of struct {a, b, confidence?, rank?, evidence?}.
// Pairs are undirected: A–B and B–A are the same pair (twice is an error); A–A is a
// homodimer and allowed. Stored with a ≤ b.

import { checkAccession, keepBestRanked, lookupAccessions, resolveAccession } from '../../tasks/accessions.ts';
import { checkArray, checkConfidence, checkRank, checkStruct, checkUniqueRanks, type FieldSpec, type Report } from '../../tasks/checks.ts';
import { fillRanks } from '../../tasks/ranking.ts';
import type { TaskInput } from '../family.ts';
import type { PairItem } from './types.ts';

const KEY = 'pairs';

const FIELDS: Record<string, FieldSpec> = {
  a: { kind: 'string', required: true },
  b: { kind: 'string', required: true },
  confidence: { kind: 'double' },
  rank: { kind: 'int' },
  evidence: { kind: 'string' },
};

interface Parsed {
  index: number;
  a: string;
  b: string;
  rank?: number;
  confidence?: number;
  evidence?: string;
}

/** One spelling per unordered pair. */
function ordered(a: string, b: string): [string, string] {
  return a <= b ? [a, b] : [b, a];
}

/** The pair as messages name it, one spelling per unordered pair ("A–B"); also the key that finds a pair given twice. */
const pairLabel = (a: string, b: string): string => ordered(a, b).join('–');

export function validateIpt(value: unknown, input: TaskInput, report: Report): PairItem[] | undefined {
  const list = checkArray(value, KEY, 'structs {a, b, confidence?, rank?, evidence?}', report);
  if (!list) return undefined;
  const errorsBefore = report.errors.length;
  const parsed: Parsed[] = [];
  const ranks: (number | undefined)[] = [];
  const firstUse = new Map<string, number>();
  list.forEach((entry, index) => {
    const path = `${KEY}[${index}]`;
    const fields = checkStruct(entry, path, FIELDS, report);
    if (!fields) return;
    const a = typeof fields.a === 'string' ? checkAccession(fields.a, `${path}.a`, report) : undefined;
    const b = typeof fields.b === 'string' ? checkAccession(fields.b, `${path}.b`, report) : undefined;
    const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
    const rank = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
    ranks[index] = rank;
    if (a === undefined || b === undefined) return;
    const key = pairLabel(a, b);
    const first = firstUse.get(key);
    if (first !== undefined) {
      report.error(path, `the pair ${a}–${b} is already given in ${KEY}[${first}] (pairs are unordered: A–B and B–A are the same); give each pair once`);
    } else firstUse.set(key, index);
    parsed.push({ index, a, b, rank, confidence, evidence: fields.evidence as string | undefined });
  });
  checkUniqueRanks(ranks, KEY, report);
  if (report.errors.length > errorsBefore) return undefined;

  const filled = fillRanks(parsed);
  if (filled.partial) report.warn(KEY, 'some pairs have a rank and others not: the unranked ones were ranked after them, by confidence then list order');
  const kept: (Parsed & { rank: number })[] = [];
  // Both sides of every pair in one batched lookup: found[2i] is pair i's a, found[2i+1] its b.
  const found = lookupAccessions(parsed.flatMap((pair) => [pair.a, pair.b]), input.accessions);
  parsed.forEach((pair, i) => {
    const path = `${KEY}[${pair.index}]`;
    const a = resolveAccession(pair.a, `${path}.a`, input.accessions, report, 'pair', found?.[2 * i]);
    // Resolve b even when a is dropped, so the team hears about both.
    const b = resolveAccession(pair.b, `${path}.b`, input.accessions, report, 'pair', found?.[2 * i + 1]);
    if (a === undefined || b === undefined) return;
    const [low, high] = ordered(a, b);
    kept.push({ ...pair, a: low, b: high, rank: filled.ranks[i] });
  });
  const distinct = keepBestRanked(kept, (pair) => pairLabel(pair.a, pair.b), KEY, 'a', report);
  distinct.sort((x, y) => x.rank - y.rank);
  return distinct.map((pair) => ({
    a: pair.a,
    b: pair.b,
    rank: pair.rank,
    ...(pair.confidence !== undefined ? { confidence: pair.confidence } : {}),
    ...(pair.evidence !== undefined ? { evidence: pair.evidence } : {}),
  }));
}
