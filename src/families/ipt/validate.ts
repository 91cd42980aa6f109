// IPT: interaction pairs, `pairs` = array of struct {a, b, confidence?, rank?, evidence?}.
// Pairs are undirected: A–B and B–A are the same pair (twice is an error); A–A is a
// homodimer and allowed. Stored with a ≤ b.

import { checkAccession, lookupAccessions, resolveAccession } from '../../tasks/accessions.ts';
import type { FieldSpec, Report } from '../../tasks/checks.ts';
import { keepRankedAnswer, readRankedAnswer, type RankedAnswerSpec } from '../common/ranked-answer.ts';
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

interface Fields {
  a: string;
  b: string;
  evidence?: string;
}

/** One spelling per unordered pair. */
function ordered(a: string, b: string): [string, string] {
  return a <= b ? [a, b] : [b, a];
}

/** The pair as messages name it, one spelling per unordered pair ("A–B"); also the key that finds a pair given twice. */
const pairLabel = (a: string, b: string): string => ordered(a, b).join('–');

const SPEC: RankedAnswerSpec<Fields> = {
  key: KEY,
  shape: 'structs {a, b, confidence?, rank?, evidence?}',
  fields: FIELDS,
  noun: 'pairs',
  read(fields, path, report) {
    const a = typeof fields.a === 'string' ? checkAccession(fields.a, `${path}.a`, report) : undefined;
    const b = typeof fields.b === 'string' ? checkAccession(fields.b, `${path}.b`, report) : undefined;
    if (a === undefined || b === undefined) return undefined;
    return {
      fields: { a, b, evidence: fields.evidence as string | undefined },
      id: pairLabel(a, b),
      repeated: (first) => [
        path,
        `the pair ${a}–${b} is already given in ${KEY}[${first}] (pairs are unordered: A–B and B–A are the same); give each pair once`,
      ],
    };
  },
};

export function validateIpt(value: unknown, input: TaskInput, report: Report): PairItem[] | undefined {
  const parsed = readRankedAnswer(value, SPEC, report);
  if (!parsed) return undefined;
  // Both sides of every pair in one batched lookup: found[2i] is pair i's a, found[2i+1] its b.
  const found = lookupAccessions(
    parsed.flatMap((pair) => [pair.a, pair.b]),
    input.accessions,
  );
  const distinct = keepRankedAnswer(
    parsed,
    SPEC,
    {
      resolve: (pair, i) => {
        const path = `${KEY}[${pair.index}]`;
        const a = resolveAccession(pair.a, `${path}.a`, input.accessions, report, 'pair', found?.[2 * i]);
        // Resolve b even when a is dropped, so the team hears about both.
        const b = resolveAccession(pair.b, `${path}.b`, input.accessions, report, 'pair', found?.[2 * i + 1]);
        if (a === undefined || b === undefined) return undefined;
        const [low, high] = ordered(a, b);
        return { ...pair, a: low, b: high };
      },
      identity: (pair) => pairLabel(pair.a, pair.b),
      field: 'a',
    },
    report,
  );
  return distinct.map((pair) => ({
    a: pair.a,
    b: pair.b,
    rank: pair.rank,
    ...(pair.confidence !== undefined ? { confidence: pair.confidence } : {}),
    ...(pair.evidence !== undefined ? { evidence: pair.evidence } : {}),
  }));
}
