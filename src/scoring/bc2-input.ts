// Parsers for the BC II.5 tab-separated files: ACT/INT/IPT runs and gold standards, the
// homonym-ortholog map and the organism map. They take the file's text (no I/O) and
// follow bc-evaluate 2.3.1: each line is stripped and split on TAB, an empty line is an
// error, extra columns on the right are ignored, and any error aborts the whole file.

import { ScoringInputError } from './errors.ts';
import { forEachLine, INTEGER, parseConfidence, parseRank, requireColumns } from './tsv-lines.ts';
import {
  pairKey,
  type ActEntry,
  type ActGold,
  type ColumnLayout,
  type GoldItems,
  type HomonymOrthologMap,
  type OrganismMap,
  type Parsed,
  type RankedEntry,
  type RankedRun,
} from './types.ts';

export interface RunParseOptions {
  columns?: ColumnLayout;
  /** Named in error messages. */
  file?: string;
}

/** The optional rank/confidence columns starting at `at`, per the stated layout. */
function readOptional(fields: string[], at: number, columns: ColumnLayout, what: string, file: string | undefined, line: number): { rank?: number; confidence?: number } {
  switch (columns) {
    case 'rank,confidence':
      requireColumns(fields, at + 2, `${what}, rank, confidence`, file, line);
      return { rank: parseRank(fields[at], file, line), confidence: parseConfidence(fields[at + 1], file, line) };
    case 'rank':
      requireColumns(fields, at + 1, `${what}, rank`, file, line);
      return { rank: parseRank(fields[at], file, line) };
    case 'confidence':
      requireColumns(fields, at + 1, `${what}, confidence`, file, line);
      return { confidence: parseConfidence(fields[at], file, line) };
    case 'order':
      requireColumns(fields, at, what, file, line);
      return {};
  }
}

/**
 * An ACT label. Integers first (non-zero is true, so `-1` is true), then t/true/y and
 * f/false/n in any case. `+`/`-` are read as their documentation says (true/false) and
 * flagged, because bc-evaluate 2.3.1 itself reads them the other way round.
 */
export function parseActLabel(raw: string): { relevant: boolean; quirk?: '+' | '-' } | undefined {
  const text = raw.trim();
  if (INTEGER.test(text)) return { relevant: Number(text) !== 0 };
  const lower = text.toLowerCase();
  if (lower === 't' || lower === 'true' || lower === 'y') return { relevant: true };
  if (lower === 'f' || lower === 'false' || lower === 'n') return { relevant: false };
  if (text === '+') return { relevant: true, quirk: '+' };
  if (text === '-') return { relevant: false, quirk: '-' };
  return undefined;
}

function readLabel(raw: string, file: string | undefined, line: number, warnings: string[]): boolean {
  const label = parseActLabel(raw);
  if (!label) {
    throw new ScoringInputError(`unknown classification label "${raw}"`, { file, line, hint: 'use 1/0, t/f, true/false or y/n' });
  }
  if (label.quirk) {
    const where = file ? `${file}, line ${line}` : `line ${line}`;
    warnings.push(`${where}: label "${label.quirk}" read as ${label.relevant} (as documented; bc-evaluate 2.3.1 reads it as ${!label.relevant})`);
  }
  return label.relevant;
}

export function parseActRun(text: string, options: RunParseOptions = {}): Parsed<ActEntry[]> {
  const { file, columns = 'rank,confidence' } = options;
  const entries: ActEntry[] = [];
  const warnings: string[] = [];
  const seenDocs = new Map<string, number>();
  // Ranks are unique within each predicted class, not across both.
  const ranks = [new Map<number, number>(), new Map<number, number>()];
  forEachLine(text, file, (fields, line) => {
    requireColumns(fields, 2, 'document, classification', file, line);
    const doc = fields[0];
    const relevant = readLabel(fields[1], file, line, warnings);
    const { rank, confidence } = readOptional(fields, 2, columns, 'document, classification', file, line);
    const earlier = seenDocs.get(doc);
    if (earlier !== undefined) {
      throw new ScoringInputError(`duplicate document "${doc}" (first on line ${earlier})`, { file, line, hint: 'classify each document once' });
    }
    seenDocs.set(doc, line);
    if (rank !== undefined) {
      const classRanks = ranks[relevant ? 1 : 0];
      const rankLine = classRanks.get(rank);
      if (rankLine !== undefined) {
        throw new ScoringInputError(`duplicate rank ${rank} among ${relevant} classifications (first on line ${rankLine})`, { file, line, hint: 'ranks must be unique within each predicted class' });
      }
      classRanks.set(rank, line);
    }
    entries.push({ doc, relevant, rank, confidence, line });
  });
  return { value: entries, warnings };
}

export function parseActGold(text: string, options: { file?: string } = {}): Parsed<ActGold> {
  const { file } = options;
  const gold: ActGold = new Map();
  const warnings: string[] = [];
  const lines = new Map<string, number>();
  forEachLine(text, file, (fields, line) => {
    requireColumns(fields, 2, 'document, classification', file, line);
    const earlier = lines.get(fields[0]);
    if (earlier !== undefined) {
      throw new ScoringInputError(`duplicate document "${fields[0]}" (first on line ${earlier})`, { file, line, hint: 'list each gold document once' });
    }
    lines.set(fields[0], line);
    gold.set(fields[0], readLabel(fields[1], file, line, warnings));
  });
  return { value: gold, warnings };
}

interface DocState {
  entries: RankedEntry[];
  /** item key → its first line, for duplicate errors. */
  keys: Map<string, number>;
  /** rank → its first line (ranks are small integers, so an array beats a Map). */
  ranks: number[] | undefined;
}

function parseRankedRun(text: string, width: 2 | 3, options: RunParseOptions): RankedRun {
  const { file, columns = 'rank,confidence' } = options;
  const what = width === 2 ? 'document, accession' : 'document, accession A, accession B';
  const hasRanks = columns === 'rank,confidence' || columns === 'rank';
  const docs = new Map<string, DocState>();
  let lastDoc: string | undefined;
  let lastState: DocState | undefined;
  forEachLine(text, file, (fields, line) => {
    requireColumns(fields, width, what, file, line);
    const doc = fields[0];
    const key = width === 2 ? fields[1] : pairKey(fields[1], fields[2]);
    const { rank, confidence } = readOptional(fields, width, columns, what, file, line);
    // Lines of one document usually come together: skip the Map when the doc repeats.
    let state = doc === lastDoc ? lastState : docs.get(doc);
    if (!state) {
      state = { entries: [], keys: new Map(), ranks: hasRanks ? [] : undefined };
      docs.set(doc, state);
    }
    lastDoc = doc;
    lastState = state;
    const keyLine = state.keys.get(key);
    if (keyLine !== undefined) {
      const item = width === 2 ? `accession ${key}` : `pair ${key.replace('\t', ' ')} (pairs are undirected)`;
      throw new ScoringInputError(`duplicate ${item} in document ${doc} (first on line ${keyLine})`, { file, line, hint: 'report each item once per document' });
    }
    state.keys.set(key, line);
    if (state.ranks && rank !== undefined) {
      const rankLine = rank < 1_000_000 ? state.ranks[rank] : undefined;
      if (rankLine !== undefined) {
        throw new ScoringInputError(`duplicate rank ${rank} in document ${doc} (first on line ${rankLine})`, { file, line, hint: 'ranks must be unique within a document' });
      }
      if (rank < 1_000_000) state.ranks[rank] = line;
      else if (state.entries.some((e) => e.rank === rank)) {
        throw new ScoringInputError(`duplicate rank ${rank} in document ${doc}`, { file, line, hint: 'ranks must be unique within a document' });
      }
    }
    state.entries.push({ key, rank, confidence, line });
  });
  const run: RankedRun = new Map();
  for (const [doc, state] of docs) run.set(doc, state.entries);
  return run;
}

export function parseIntRun(text: string, options: RunParseOptions = {}): RankedRun {
  return parseRankedRun(text, 2, options);
}

export function parseIptRun(text: string, options: RunParseOptions = {}): RankedRun {
  return parseRankedRun(text, 3, options);
}

/** Gold items form a set per document: a repeated line adds nothing. */
function parseRankedGold(text: string, width: 2 | 3, file: string | undefined): GoldItems {
  const sets = new Map<string, Set<string>>();
  forEachLine(text, file, (fields, line) => {
    requireColumns(fields, width, width === 2 ? 'document, accession' : 'document, accession A, accession B', file, line);
    const key = width === 2 ? fields[1] : pairKey(fields[1], fields[2]);
    let set = sets.get(fields[0]);
    if (!set) sets.set(fields[0], (set = new Set()));
    set.add(key);
  });
  const gold: GoldItems = new Map();
  for (const [doc, set] of sets) gold.set(doc, [...set]);
  return gold;
}

export function parseIntGold(text: string, options: { file?: string } = {}): GoldItems {
  return parseRankedGold(text, 2, options.file);
}

export function parseIptGold(text: string, options: { file?: string } = {}): GoldItems {
  return parseRankedGold(text, 3, options.file);
}

/** `gold_accession TAB acc1,acc2,…`; a line without a TAB names an accession with no orthologs. */
export function parseHomonymOrthologMap(text: string, options: { file?: string } = {}): HomonymOrthologMap {
  const map: HomonymOrthologMap = new Map();
  forEachLine(text, options.file, (fields) => {
    const orthologs = fields.length > 1 ? fields[1].split(',').map((a) => a.trim()).filter((a) => a !== '') : [];
    const known = map.get(fields[0]);
    if (!known) {
      map.set(fields[0], [...new Set(orthologs)]);
      return;
    }
    for (const o of orthologs) if (!known.includes(o)) known.push(o);
  });
  return map;
}

/** `accession TAB taxon_id`; one taxon per accession. */
export function parseOrganismMap(text: string, options: { file?: string } = {}): OrganismMap {
  const { file } = options;
  const map: OrganismMap = new Map();
  forEachLine(text, file, (fields, line) => {
    requireColumns(fields, 2, 'accession, taxon id', file, line);
    const taxon = fields[1].trim();
    const known = map.get(fields[0]);
    if (known !== undefined && known !== taxon) {
      throw new ScoringInputError(`accession ${fields[0]} has two taxa (${known} and ${taxon})`, { file, line, hint: 'give each accession one taxon' });
    }
    map.set(fields[0], taxon);
  });
  return map;
}
