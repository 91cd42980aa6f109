// The INT/IPT run parser reads lines in place, in a fast pass and a careful one (see
// src/scoring/README.md). This checks it against the plain algorithm it replaced (trim
// and split every line, a Map of keys and one of ranks per document) on seeded random
// inputs, valid and broken: the same entries, or the same error message and line.
import { describe, expect, it } from 'vitest';
import { parseIntRun, parseIptRun } from '../../src/scoring/bc2-input.ts';
import { ScoringInputError } from '../../src/scoring/errors.ts';
import { parseConfidence, parseRank, requireColumns } from '../../src/scoring/tsv-lines.ts';
import { unorderedPairKey as pairKey, type ColumnLayout, type RankedEntry, type RankedRun } from '../../src/scoring/types.ts';
import { mulberry32 } from '../../src/shared/prng.ts';

const OPTIONAL: Record<ColumnLayout, string[]> = {
  'rank,confidence': ['rank', 'confidence'],
  rank: ['rank'],
  confidence: ['confidence'],
  order: [],
};

function referenceRun(text: string, width: 2 | 3, columns: ColumnLayout, file?: string, documents?: Set<string>): RankedRun {
  const what = width === 2 ? 'document, accession' : 'document, accession A, accession B';
  const lines = text === '' ? [] : text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const docs = new Map<string, { keys: Map<string, number>; ranks: Map<number, number>; entries: RankedEntry[] }>();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const stripped = raw.trim();
    if (stripped === '')
      throw new ScoringInputError('empty line', { file, line, hint: 'remove blank lines; every line must hold one tab-separated record' });
    const fields = stripped.split('\t');
    requireColumns(fields, width, what, file, line);
    const optional = OPTIONAL[columns];
    requireColumns(fields, width + optional.length, [what, ...optional].join(', '), file, line);
    const key = width === 2 ? fields[1] : pairKey(fields[1], fields[2]);
    const rank = optional.includes('rank') ? parseRank(fields[width], file, line) : undefined;
    const confidence = optional.includes('confidence')
      ? parseConfidence(fields[width + optional.indexOf('confidence')], file, line)
      : undefined;
    const doc = fields[0];
    let state = docs.get(doc);
    if (!state) docs.set(doc, (state = { keys: new Map(), ranks: new Map(), entries: [] }));
    const keyLine = state.keys.get(key);
    if (keyLine !== undefined) {
      const item = width === 2 ? `accession ${key}` : `pair ${key.replace('\t', ' ')} (pairs are undirected)`;
      throw new ScoringInputError(`duplicate ${item} in document ${doc} (first on line ${keyLine})`, {
        file,
        line,
        hint: 'report each item once per document',
      });
    }
    state.keys.set(key, line);
    if (rank !== undefined) {
      const rankLine = state.ranks.get(rank);
      if (rankLine !== undefined) {
        const first = rank < 1_000_000 ? ` (first on line ${rankLine})` : '';
        throw new ScoringInputError(`duplicate rank ${rank} in document ${doc}${first}`, {
          file,
          line,
          hint: 'ranks must be unique within a document',
        });
      }
      state.ranks.set(rank, line);
    }
    state.entries.push({ key, rank, confidence, line });
  });
  const run: RankedRun = new Map();
  for (const [doc, state] of docs) if (!documents || documents.has(doc)) run.set(doc, state.entries);
  return run;
}

function outcome(parse: () => RankedRun): string {
  try {
    return JSON.stringify([...parse()]);
  } catch (error) {
    if (!(error instanceof ScoringInputError)) throw error;
    return `${error.message} @${error.line}`;
  }
}

const rand = mulberry32(20240611);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const chance = (p: number) => rand() < p;
const ODD_RANKS = ['0', '-1', '+2', ' 3', '1.5', '', '1000000', '2000001', '99999999999', 'x', '007'];
const ODD_CONFIDENCES = ['1', '1.0', '0', '1.5', '.5', '5e-1', '', 'nan', ' 0.3', '0.1234567890123456', '1.', '-0.5'];
const ODD_ACCESSIONS = ['A', 'a b', 'A ', ' ', 'P1', 'p1'];
const SPACE = ['', ' ', '\r', '\t', ' \t', '\u00a0'];

/** A line that is usually valid: few documents and accessions, so duplicates happen. */
function randomLine(width: 2 | 3): string {
  const fields = [pick(['d1', 'd2', 'd3', 'PMC1'])];
  for (let i = 1; i < width; i++) fields.push(chance(0.9) ? `P${Math.floor(rand() * 40)}` : pick(ODD_ACCESSIONS));
  fields.push(chance(0.9) ? String(1 + Math.floor(rand() * 40)) : pick(ODD_RANKS));
  fields.push(chance(0.9) ? rand().toFixed(1 + Math.floor(rand() * 5)) : pick(ODD_CONFIDENCES));
  if (chance(0.2)) fields.push('extra');
  let line = fields.slice(0, chance(0.02) ? Math.floor(rand() * fields.length) : fields.length).join('\t');
  if (chance(0.1)) line = pick(SPACE) + line;
  if (chance(0.1)) line += pick(SPACE);
  return chance(0.005) ? pick(SPACE) : line;
}

function randomText(width: 2 | 3): string {
  const lines = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => randomLine(width));
  // Usually grouped by document (the fast pass), sometimes not (the careful one).
  if (chance(0.5)) lines.sort((a, b) => (a.split('\t')[0] < b.split('\t')[0] ? -1 : 1));
  const text = lines.join(chance(0.1) ? '\r\n' : '\n');
  return chance(0.7) ? `${text}\n` : text;
}

/** Documents of up to ~700 items (past the fast pass's limit), in order, sometimes with one duplicate. */
function longText(): string {
  const lines: string[] = [];
  for (let d = 0; d < 1 + Math.floor(rand() * 3); d++) {
    const duplicateKey = chance(0.3);
    const duplicateRank = chance(0.3);
    const rankBase = chance(0.3) ? 1000 : 1;
    for (let k = 0, n = Math.floor(rand() * 700); k < n; k++) {
      const accession = duplicateKey && chance(0.01) ? 'P7' : `P${100000 + k * 7}`;
      const rank = rankBase + (duplicateRank && chance(0.01) ? 3 : 10 + k * 3);
      lines.push(`doc${d}\t${accession}\t${rank}\t0.5`);
    }
  }
  return lines.join('\n');
}

describe('INT/IPT runs against the plain reference parser', () => {
  it('agree on random short runs in every column layout, with and without a document filter', () => {
    let errors = 0;
    for (let i = 0; i < 3000; i++) {
      const width = chance(0.5) ? 2 : 3;
      const text = randomText(width);
      const columns = pick(['rank,confidence', 'rank', 'confidence', 'order'] as const);
      const file = chance(0.5) ? 'run.tsv' : undefined;
      const documents = chance(0.5) ? new Set(['d1', 'PMC1']) : undefined;
      const parse = width === 2 ? parseIntRun : parseIptRun;
      const expected = outcome(() => referenceRun(text, width, columns, file, documents));
      expect(
        outcome(() => parse(text, { columns, file, documents })),
        JSON.stringify({ text, columns }),
      ).toBe(expected);
      if (!expected.startsWith('[')) errors++;
    }
    // Both kinds of input were exercised.
    expect(errors).toBeGreaterThan(500);
    expect(errors).toBeLessThan(2500);
  });

  it('agree on long documents', () => {
    for (let i = 0; i < 40; i++) {
      const text = longText();
      for (const columns of ['rank,confidence', 'rank'] as const) {
        expect(outcome(() => parseIntRun(text, { columns }))).toBe(outcome(() => referenceRun(text, 2, columns)));
      }
    }
  });
});
