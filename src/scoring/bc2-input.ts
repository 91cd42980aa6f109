// Parsers for the BC II.5 tab-separated files: classification runs and gold standards
// (ACT), ranked lists of items per document (INT accessions, IPT pairs, and any family
// with document-level ids, through a RankedLayout), the homonym-ortholog map and the
// organism map. They take the file's text (no I/O) and follow bc-evaluate 2.3.1: each line
// is stripped and split on TAB, an empty line is an error, extra columns on the right are
// ignored, and any error aborts the whole file.

import { ScoringInputError } from './errors.ts';
import { forEachLine, INTEGER, parseConfidence, parseRank, requireColumns, TsvScanner } from './tsv-lines.ts';
import {
  unorderedPairKey,
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

/**
 * The key columns of a ranked result file: the document, then one item (an accession, a
 * taxon id) or an unordered pair of them, and how messages name them.
 */
export interface RankedLayout {
  /** Columns up to and including the key: 2 (document, item) or 3 (document, item A, item B). */
  width: 2 | 3;
  /** The key columns in messages: `document, accession`. */
  what: string;
  /** A key in a message: `accession P12345`. */
  describe(key: string): string;
  /** Why an item as written is not one (with what to do), or undefined; absent: any is taken. */
  check?(item: string): { reason: string; hint: string } | undefined;
}

export const ACCESSION_LAYOUT: RankedLayout = { width: 2, what: 'document, accession', describe: (key) => `accession ${key}` };

/** Undirected pairs: the key is the two accessions sorted, joined by TAB (see unorderedPairKey). */
export const PAIR_LAYOUT: RankedLayout = {
  width: 3,
  what: 'document, accession A, accession B',
  describe: (key) => `pair ${key.replace('\t', ' ')} (pairs are undirected)`,
};

function checkItem(layout: RankedLayout, item: string, file: string | undefined, line: number): void {
  const problem = layout.check?.(item);
  if (problem) throw new ScoringInputError(problem.reason, { file, line, hint: problem.hint });
}

export interface RunParseOptions {
  columns?: ColumnLayout;
  /** Named in error messages. */
  file?: string;
  /**
   * INT/IPT: return only these documents (e.g. the gold standard's); the lines of the
   * others are still checked, so the same files are rejected. Scoring drops run
   * documents that are not in the gold, so passing the gold changes no score and saves
   * building entries for most of a run.
   */
  documents?: { has(doc: string): boolean };
}

/** Where a layout's optional columns sit after the fixed ones (-1: absent). */
const OPTIONAL_COLUMNS: Record<ColumnLayout, { rank: number; confidence: number; count: number; what: string }> = {
  'rank,confidence': { rank: 0, confidence: 1, count: 2, what: ', rank, confidence' },
  rank: { rank: 0, confidence: -1, count: 1, what: ', rank' },
  confidence: { rank: -1, confidence: 0, count: 1, what: ', confidence' },
  order: { rank: -1, confidence: -1, count: 0, what: '' },
};

/** The optional rank/confidence columns starting at `at`, per the stated layout. */
function readOptional(
  fields: string[],
  at: number,
  columns: ColumnLayout,
  what: string,
  file: string | undefined,
  line: number,
): { rank?: number; confidence?: number } {
  const optional = OPTIONAL_COLUMNS[columns];
  requireColumns(fields, at + optional.count, what + optional.what, file, line);
  return {
    rank: optional.rank < 0 ? undefined : parseRank(fields[at + optional.rank], file, line),
    confidence: optional.confidence < 0 ? undefined : parseConfidence(fields[at + optional.confidence], file, line),
  };
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
    warnings.push(
      `${where}: label "${label.quirk}" read as ${label.relevant} (as documented; bc-evaluate 2.3.1 reads it as ${!label.relevant})`,
    );
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
      throw new ScoringInputError(`duplicate document "${doc}" (first on line ${earlier})`, {
        file,
        line,
        hint: 'classify each document once',
      });
    }
    seenDocs.set(doc, line);
    if (rank !== undefined) {
      const classRanks = ranks[relevant ? 1 : 0];
      const rankLine = classRanks.get(rank);
      if (rankLine !== undefined) {
        throw new ScoringInputError(`duplicate rank ${rank} among ${relevant} classifications (first on line ${rankLine})`, {
          file,
          line,
          hint: 'ranks must be unique within each predicted class',
        });
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
      throw new ScoringInputError(`duplicate document "${fields[0]}" (first on line ${earlier})`, {
        file,
        line,
        hint: 'list each gold document once',
      });
    }
    lines.set(fields[0], line);
    gold.set(fields[0], readLabel(fields[1], file, line, warnings));
  });
  return { value: gold, warnings };
}

/**
 * Reads the lines of a ranked run (width 2: doc, item; width 3: doc, item A, item B) one
 * at a time, checking the columns, rank and confidence of each (and the items, when the
 * layout checks them).
 * After `next()`, the line's item key is known by where it is in the text (one field,
 * or for IPT two fields in sorted order, see `unorderedPairKey`) and by its hash, but is not cut
 * out: most lines belong to documents the caller does not keep, and their keys are only
 * compared, in place. `keyString()` makes the string when it is needed.
 */
class RankedLines {
  readonly scanner: TsvScanner;
  /** The key's field, or its first field (INT: `second` is -1). */
  first = 0;
  second = -1;
  hash = 0;
  /** 0 without ranks. */
  rank = 0;
  confidence: number | undefined = undefined;
  private readonly what: string;
  private readonly whatAll: string;
  private readonly need: number;
  private readonly rankAt: number;
  private readonly confidenceAt: number;

  readonly width: 2 | 3;

  constructor(
    text: string,
    readonly layout: RankedLayout,
    columns: ColumnLayout,
    readonly file: string | undefined,
  ) {
    const optional = OPTIONAL_COLUMNS[columns];
    const width = layout.width;
    this.width = width;
    this.scanner = new TsvScanner(text, file);
    this.what = layout.what;
    this.whatAll = this.what + optional.what;
    this.need = width + optional.count;
    this.rankAt = optional.rank < 0 ? -1 : width + optional.rank;
    this.confidenceAt = optional.confidence < 0 ? -1 : width + optional.confidence;
  }

  /** Moves to the next line and reads it; false after the last. Throws on a bad line. */
  next(): boolean {
    const scanner = this.scanner;
    if (!scanner.next()) return false;
    if (scanner.split(this.need) < this.need) this.missingColumns();
    if (this.width === 2) this.first = 1;
    else if (scanner.compareFields(1, 2) <= 0) {
      this.first = 1;
      this.second = 2;
    } else {
      this.first = 2;
      this.second = 1;
    }
    if (this.layout.check) {
      checkItem(this.layout, scanner.field(this.first), this.file, scanner.line);
      if (this.second >= 0) checkItem(this.layout, scanner.field(this.second), this.file, scanner.line);
    }
    this.hash = scanner.hashFields(this.first, this.second);
    this.rank = this.rankAt < 0 ? 0 : scanner.rank(this.rankAt);
    this.confidence = this.confidenceAt < 0 ? undefined : scanner.confidence(this.confidenceAt);
    return true;
  }

  /** The current key as a string: the accession, or the pair key (sorted accessions joined by TAB). */
  keyString(): string {
    const scanner = this.scanner;
    if (this.second < 0) return scanner.field(this.first);
    // In order, the two fields and the TAB between them already spell the key: one slice.
    if (this.first === 1) return scanner.text.slice(scanner.start(1), scanner.end(2));
    return `${scanner.field(2)}\t${scanner.field(1)}`;
  }

  /** Whether the current key is the one at `text[start, end)` (and TAB `text[start2, end2)` for a pair). */
  keyIs(start: number, end: number, start2: number, end2: number): boolean {
    const scanner = this.scanner;
    if (!scanner.sameText(scanner.start(this.first), scanner.end(this.first), start, end)) return false;
    return this.second < 0 || scanner.sameText(scanner.start(this.second), scanner.end(this.second), start2, end2);
  }

  /** The entry for the current line, with `key` if the caller has cut it already. */
  entry(key = this.keyString()): RankedEntry {
    return { key, rank: this.rank === 0 ? undefined : this.rank, confidence: this.confidence, line: this.scanner.line };
  }

  duplicateKey(doc: string, firstLine: number): never {
    const item = this.layout.describe(this.keyString());
    throw new ScoringInputError(`duplicate ${item} in document ${doc} (first on line ${firstLine})`, {
      file: this.file,
      line: this.scanner.line,
      hint: 'report each item once per document',
    });
  }

  duplicateRank(doc: string, firstLine: number): never {
    // Ranks from a million up were once found by searching the entries, so their message
    // names no line; it is kept word for word, as callers may match on messages.
    const first = this.rank < 1_000_000 ? ` (first on line ${firstLine})` : '';
    throw new ScoringInputError(`duplicate rank ${this.rank} in document ${doc}${first}`, {
      file: this.file,
      line: this.scanner.line,
      hint: 'ranks must be unique within a document',
    });
  }

  /** The error for a line short of columns: the fixed ones are checked first. */
  private missingColumns(): never {
    const fields = this.scanner.fields();
    requireColumns(fields, this.width, this.what, this.file, this.scanner.line);
    requireColumns(fields, this.need, this.whatAll, this.file, this.scanner.line);
    throw new Error('unreachable: the line has the columns it lacks');
  }
}

/**
 * The most items a document may have in the fast pass; BC II.5 runs list up to ~30.
 * Longer documents are left to the careful pass.
 */
const SMALL_DOCUMENT = 512;
/** Hash table size for the current document's keys: a power of two, at least twice SMALL_DOCUMENT. */
const KEY_SLOTS = 1024;
/** Ranks below this are looked up directly; larger ones by a search of the document's items. */
const RANK_SLOTS = 1024;

/**
 * The items of the document being read, in the fast pass (see readGroupedRun): one
 * document at a time, in typed arrays reused from one document to the next. Duplicate
 * keys are found through a small open-addressing table of key hashes, and duplicate ranks
 * through a table indexed by rank, so each item costs O(1) and no Map is built. The
 * tables are never cleared: a slot belongs to the current document only when it holds
 * the document's serial number.
 */
class CurrentDocument {
  doc = '';
  count = 0;
  private serial = 0;
  /** Where each item's key is in the text (the second part -1 for INT): see RankedLines. */
  private readonly keyStarts = new Int32Array(SMALL_DOCUMENT);
  private readonly keyEnds = new Int32Array(SMALL_DOCUMENT);
  private readonly keyStarts2 = new Int32Array(SMALL_DOCUMENT);
  private readonly keyEnds2 = new Int32Array(SMALL_DOCUMENT);
  private readonly hashes = new Int32Array(SMALL_DOCUMENT);
  private readonly ranks = new Float64Array(SMALL_DOCUMENT);
  private readonly lines = new Int32Array(SMALL_DOCUMENT);
  private readonly keySerial = new Int32Array(KEY_SLOTS);
  private readonly keyItem = new Int32Array(KEY_SLOTS);
  private readonly rankSerial = new Int32Array(RANK_SLOTS);
  private readonly rankItem = new Int32Array(RANK_SLOTS);

  start(doc: string): void {
    this.doc = doc;
    this.count = 0;
    this.serial++;
  }

  get full(): boolean {
    return this.count === SMALL_DOCUMENT;
  }

  /** Adds the current line's item, throwing if its key, then its rank, is already there. */
  add(lines: RankedLines): void {
    const { hash, rank, scanner } = lines;
    const serial = this.serial;
    let slot = hash & (KEY_SLOTS - 1);
    for (; this.keySerial[slot] === serial; slot = (slot + 1) & (KEY_SLOTS - 1)) {
      const item = this.keyItem[slot];
      if (this.hashes[item] === hash && lines.keyIs(this.keyStarts[item], this.keyEnds[item], this.keyStarts2[item], this.keyEnds2[item])) {
        lines.duplicateKey(this.doc, this.lines[item]);
      }
    }
    if (rank !== 0) {
      const earlier = this.itemWithRank(rank);
      if (earlier !== -1) lines.duplicateRank(this.doc, this.lines[earlier]);
    }
    const at = this.count++;
    this.keyStarts[at] = scanner.start(lines.first);
    this.keyEnds[at] = scanner.end(lines.first);
    this.keyStarts2[at] = lines.second < 0 ? -1 : scanner.start(lines.second);
    this.keyEnds2[at] = lines.second < 0 ? -1 : scanner.end(lines.second);
    this.hashes[at] = hash;
    this.ranks[at] = rank;
    this.lines[at] = scanner.line;
    this.keySerial[slot] = serial;
    this.keyItem[slot] = at;
    if (rank < RANK_SLOTS) {
      this.rankSerial[rank] = serial;
      this.rankItem[rank] = at;
    }
  }

  /** The item of this document with that rank, or -1. */
  private itemWithRank(rank: number): number {
    if (rank < RANK_SLOTS) return this.rankSerial[rank] === this.serial ? this.rankItem[rank] : -1;
    for (let i = 0; i < this.count; i++) if (this.ranks[i] === rank) return i;
    return -1;
  }
}

/**
 * The fast pass: exact while every document's lines come together and no document has
 * more than SMALL_DOCUMENT items, which is how runs are written. Then only one
 * document's items at a time need keeping for the duplicate checks. Returns undefined
 * as soon as a line breaks that assumption, having checked every line before it exactly
 * as the careful pass would (so any error it throws is the one the careful pass throws).
 */
function readGroupedRun(lines: RankedLines, documents: RunParseOptions['documents']): RankedRun | undefined {
  const run: RankedRun = new Map();
  const seen = new Set<string>();
  const current = new CurrentDocument();
  let entries: RankedEntry[] | undefined;
  let started = false;
  while (lines.next()) {
    // Compare the id in place, and cut it only when the document changes.
    if (!started || !lines.scanner.fieldIs(0, current.doc)) {
      const doc = lines.scanner.field(0);
      if (seen.has(doc)) return undefined;
      seen.add(doc);
      current.start(doc);
      started = true;
      entries = documents === undefined || documents.has(doc) ? [] : undefined;
      if (entries) run.set(doc, entries);
    }
    if (current.full) return undefined;
    current.add(lines);
    entries?.push(lines.entry());
  }
  return run;
}

/** The careful pass, for any order of lines: a Map of keys and one of ranks per document. */
function readAnyRun(lines: RankedLines, documents: RunParseOptions['documents']): RankedRun {
  const run: RankedRun = new Map();
  const states = new Map<string, { keys: Map<string, number>; ranks: Map<number, number>; entries: RankedEntry[] | undefined }>();
  while (lines.next()) {
    const doc = lines.scanner.field(0);
    let state = states.get(doc);
    if (!state) {
      state = { keys: new Map(), ranks: new Map(), entries: documents === undefined || documents.has(doc) ? [] : undefined };
      states.set(doc, state);
      if (state.entries) run.set(doc, state.entries);
    }
    const key = lines.keyString();
    const keyLine = state.keys.get(key);
    if (keyLine !== undefined) lines.duplicateKey(doc, keyLine);
    state.keys.set(key, lines.scanner.line);
    if (lines.rank !== 0) {
      const rankLine = state.ranks.get(lines.rank);
      if (rankLine !== undefined) lines.duplicateRank(doc, rankLine);
      state.ranks.set(lines.rank, lines.scanner.line);
    }
    state.entries?.push(lines.entry(key));
  }
  return run;
}

/**
 * Ranked runs: the fast pass, and the careful one from the top when the fast pass meets a
 * document again or a long one (the same result, only slower).
 */
export function parseRankedRun(text: string, layout: RankedLayout, options: RunParseOptions = {}): RankedRun {
  const { file, columns = 'rank,confidence', documents } = options;
  return (
    readGroupedRun(new RankedLines(text, layout, columns, file), documents) ??
    readAnyRun(new RankedLines(text, layout, columns, file), documents)
  );
}

export function parseIntRun(text: string, options: RunParseOptions = {}): RankedRun {
  return parseRankedRun(text, ACCESSION_LAYOUT, options);
}

export function parseIptRun(text: string, options: RunParseOptions = {}): RankedRun {
  return parseRankedRun(text, PAIR_LAYOUT, options);
}

/** Gold items form a set per document: a repeated line adds nothing. */
export function parseRankedGold(text: string, layout: RankedLayout, options: { file?: string } = {}): GoldItems {
  const { file } = options;
  const { width } = layout;
  const sets = new Map<string, Set<string>>();
  forEachLine(text, file, (fields, line) => {
    requireColumns(fields, width, layout.what, file, line);
    for (let i = 1; i < width; i++) checkItem(layout, fields[i], file, line);
    const key = width === 2 ? fields[1] : unorderedPairKey(fields[1], fields[2]);
    let set = sets.get(fields[0]);
    if (!set) sets.set(fields[0], (set = new Set()));
    set.add(key);
  });
  const gold: GoldItems = new Map();
  for (const [doc, set] of sets) gold.set(doc, [...set]);
  return gold;
}

export function parseIntGold(text: string, options: { file?: string } = {}): GoldItems {
  return parseRankedGold(text, ACCESSION_LAYOUT, options);
}

export function parseIptGold(text: string, options: { file?: string } = {}): GoldItems {
  return parseRankedGold(text, PAIR_LAYOUT, options);
}

/** `gold_accession TAB acc1,acc2,…`; a line without a TAB names an accession with no orthologs. */
export function parseHomonymOrthologMap(text: string, options: { file?: string } = {}): HomonymOrthologMap {
  const map: HomonymOrthologMap = new Map();
  forEachLine(text, options.file, (fields) => {
    const orthologs =
      fields.length > 1
        ? fields[1]
            .split(',')
            .map((a) => a.trim())
            .filter((a) => a !== '')
        : [];
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
      throw new ScoringInputError(`accession ${fields[0]} has two taxa (${known} and ${taxon})`, {
        file,
        line,
        hint: 'give each accession one taxon',
      });
    }
    map.set(fields[0], taxon);
  });
  return map;
}
