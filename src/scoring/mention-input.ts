// Parsers for mention annotations: brat standoff `.ann` text and CoNLL-style BIO (IOB2,
// IOBES/BIOES or BILOU tags).
// BIO has no character offsets, so its mentions are token spans (start inclusive, end
// exclusive, counted over the whole file); gold and response BIO files must then hold the
// same tokens, which checkBioAlignment verifies.

import { conceptIdProblem, formatConceptId, readConceptId } from '../tasks/concept-ids.ts';
import { ScoringInputError } from './errors.ts';
import type { Mention } from './mention.ts';
import type { Parsed } from './types.ts';

/**
 * Text-bound annotations (`T1<TAB>Type start end<TAB>text`) of one brat `.ann` file, with
 * the concept ids of their normalization lines (`N1<TAB>Reference T1 MESH:D003693<TAB>name`,
 * one line per id: several on one T for a composite mention; README "brat N lines"); other
 * annotation kinds (relations, events, attributes, notes) are skipped. A discontinuous span
 * (`0 5;8 12`) counts from its first start to its last end, as one mention.
 */
export function parseBratMentions(text: string, options: { doc?: string; file?: string } = {}): Mention[] {
  const { doc = '', file } = options;
  const mentions: Mention[] = [];
  const byId = new Map<string, Mention>();
  const references: Array<{ target: string; id: string; line: number }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line.startsWith('N')) {
      references.push(readNormalization(line, i + 1, file));
      continue;
    }
    if (!line.startsWith('T')) continue;
    const fields = line.split('\t');
    const match = fields.length >= 2 ? /^(\S+) (\d+) (\d+(?:;\d+ \d+)*)$/.exec(fields[1].trim()) : null;
    if (!match) {
      throw new ScoringInputError(`malformed text-bound annotation "${line}"`, {
        file,
        line: i + 1,
        hint: 'write T<n><TAB>Type start end<TAB>text',
      });
    }
    const offsets = `${match[2]} ${match[3]}`.split(/[ ;]/).map(Number);
    const start = offsets[0];
    const end = offsets[offsets.length - 1];
    if (end < start) {
      throw new ScoringInputError(`span ${start}–${end} ends before it starts`, { file, line: i + 1 });
    }
    const mention: Mention = { doc, start, end, type: match[1] };
    mentions.push(mention);
    byId.set(fields[0], mention);
  }
  for (const r of references) {
    const mention = byId.get(r.target);
    if (!mention)
      throw new ScoringInputError(`the normalization names ${r.target}, which no T line of the file is`, { file, line: r.line });
    if (!(mention.ids ??= []).includes(r.id)) mention.ids.push(r.id);
  }
  return mentions;
}

/** One brat normalization line: `N<n><TAB>Reference T<m> RID:EID[<TAB>name]`, its id read as stored (`NS:accession`). */
function readNormalization(line: string, n: number, file: string | undefined): { target: string; id: string; line: number } {
  const fields = line.split('\t');
  const match = fields.length >= 2 ? /^Reference (\S+) ([^\s:]+):(\S+)$/.exec(fields[1].trim()) : null;
  const written = match ? readConceptId(`${match[2]}:${match[3]}`) : undefined;
  const problem = written ? conceptIdProblem(written) : 'no RID:EID';
  if (!match || !written || problem) {
    throw new ScoringInputError(`malformed normalization "${line}"${match ? `: ${problem}` : ''}`, {
      file,
      line: n,
      hint: 'write N<n><TAB>Reference T<m> MESH:D003693<TAB>name, one line per id of the mention',
    });
  }
  return { target: match[1], id: formatConceptId(written), line: n };
}

export interface BioDocument {
  /** Token texts, in order. */
  tokens: string[];
  /** The 1-based line of each token, for alignment errors. */
  tokenLines: number[];
  mentions: Mention[];
}

export interface BioParseOptions {
  doc?: string;
  file?: string;
  /**
   * Read a broken sequence the nearest way (with a warning) instead of failing: an I-X or
   * E-X that continues nothing starts a mention (as B-X or S-X), and an IOBES/BILOU mention
   * left open by something other than its E-X/L-X ends there.
   */
  lenient?: boolean;
  /**
   * Single-class reading, as evalbio.pl -1 reads: types are ignored when deciding where a
   * mention ends, so an I-Y (or E-Y) after B-X continues the mention (one mention, with
   * the type of its first tag), where otherwise it is a type change without B. An I-X
   * after O or at a sentence start is still an error, as it is for evalbio.pl -1.
   */
  singleClass?: boolean;
}

/** Lines that separate documents rather than carry tokens (CoNLL and JNLPBA conventions). */
function isDocumentMarker(line: string): boolean {
  return line.startsWith('-DOCSTART-') || line.startsWith('###');
}

// Tag schemes. IOB2: B begins, I continues, O is outside. IOBES (also called BIOES) adds
// E (last token) and S (single token); BILOU calls them L and U. A file's scheme is the one
// its tags show (any E/S: IOBES, any L/U: BILOU, else IOB2); in IOBES and BILOU a mention
// must be closed by its E/L (or be an S/U), which IOB2 does not ask.
type Scheme = 'IOB2' | 'IOBES' | 'BILOU';
const TAG = /^([BIESLU])-(.+)$/;
const SCHEME_OF: Record<string, Scheme | undefined> = { E: 'IOBES', S: 'IOBES', L: 'BILOU', U: 'BILOU' };
const TAGS_HINT = 'tags are O, B-<type>, I-<type> (IOB2), plus E-/S-<type> (IOBES) or L-/U-<type> (BILOU)';

interface TagLine {
  line: number;
  token: string;
  /** B, I, E (also L), S (also U), or O. */
  role: 'B' | 'I' | 'E' | 'S' | 'O';
  type: string;
  tag: string;
}

/**
 * The token lines of a BIO file (null for a sentence or document boundary) and its scheme.
 * Reading stops at the first unreadable line, which is returned as its error, so that an
 * earlier sequence error is still reported first.
 */
function readTagLines(text: string, file: string | undefined): { lines: Array<TagLine | null | ScoringInputError>; scheme: Scheme } {
  const lines: Array<TagLine | null | ScoringInputError> = [];
  let scheme: Scheme = 'IOB2';
  let schemeLine = 0;
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const line = rows[i].trim();
    const lineNo = i + 1;
    if (line === '' || isDocumentMarker(line)) {
      lines.push(null);
      continue;
    }
    const fields = line.includes('\t') ? line.split('\t') : line.split(/\s+/);
    const tag = fields[fields.length - 1].trim();
    const match = TAG.exec(tag);
    const prefix = match?.[1] ?? 'O';
    const tagScheme = SCHEME_OF[prefix];
    let error: ScoringInputError | undefined;
    if (fields.length < 2)
      error = new ScoringInputError(`expected "token<TAB>tag", found "${line}"`, {
        file,
        line: lineNo,
        hint: 'every token line needs a tag column',
      });
    else if (tag !== 'O' && !match) error = new ScoringInputError(`unknown tag "${tag}"`, { file, line: lineNo, hint: TAGS_HINT });
    else if (tagScheme && scheme !== 'IOB2' && tagScheme !== scheme) {
      error = new ScoringInputError(`${tag} is a ${tagScheme} tag, but line ${schemeLine} already used ${scheme} tags`, {
        file,
        line: lineNo,
        hint: 'use one tag scheme per file',
      });
    }
    if (error) {
      lines.push(error);
      break;
    }
    if (tagScheme && scheme === 'IOB2') {
      scheme = tagScheme;
      schemeLine = lineNo;
    }
    const role = prefix === 'L' ? 'E' : prefix === 'U' ? 'S' : (prefix as TagLine['role']);
    lines.push({ line: lineNo, token: fields[0], role, type: match?.[2] ?? '', tag });
  }
  return { lines, scheme };
}

export function parseBio(text: string, options: BioParseOptions = {}): Parsed<BioDocument> {
  const { doc = '', file, lenient = false, singleClass = false } = options;
  const { lines, scheme } = readTagLines(text, file);
  const closedByTag = scheme !== 'IOB2';
  const last = scheme === 'BILOU' ? 'L' : 'E';
  const value: BioDocument = { tokens: [], tokenLines: [], mentions: [] };
  const warnings: string[] = [];
  let open: { type: string; start: number; tag: string; line: number } | undefined;
  let previous: TagLine | null = null;
  const problem = (line: number, reason: string, hint: string, lenientReading: string) => {
    if (!lenient) throw new ScoringInputError(reason, { file, line, hint: `${hint}; use the lenient option to read it ${lenientReading}` });
    warnings.push(`${file ?? 'input'}, line ${line}: ${reason}; read ${lenientReading}`);
  };
  const close = (end: number) => {
    if (open) value.mentions.push({ doc, start: open.start, end, type: open.type });
    open = undefined;
  };
  /** What comes next cannot continue the open mention: in IOBES/BILOU it should have been closed. */
  const interrupt = (at: TagLine | null, lineNo: number) => {
    if (open && closedByTag) {
      const by = at ? at.tag : 'the end of the sentence';
      problem(
        lineNo,
        `${open.tag} (line ${open.line}) is not closed by ${last}-${open.type} before ${by}`,
        `${scheme} mentions end with ${last}-<type>`,
        'as ending there',
      );
    }
    close(value.tokens.length);
  };
  lines.forEach((t, i) => {
    if (t instanceof ScoringInputError) throw t;
    if (!t) {
      interrupt(null, i + 1);
      previous = null;
      return;
    }
    const continues = open !== undefined && (singleClass || open.type === t.type);
    if (t.role === 'O' || t.role === 'B' || t.role === 'S') interrupt(t, t.line);
    else if (!continues) {
      const after = open ? `a ${open.type} mention` : previous === null ? 'a sentence start' : 'O';
      const single = scheme === 'BILOU' ? 'U' : 'S';
      const startTag = t.role === 'I' ? 'B' : single;
      // A type change inside a mention is what single-class scoring forgives.
      const typeChange = open ? '; or score with single-class to ignore types, as evalbio.pl -1 does' : '';
      problem(
        t.line,
        `${t.tag} follows ${after}`,
        `${scheme} mentions start with B-${t.type}${closedByTag ? ` (${single}-${t.type} for one token)` : ''}${typeChange}`,
        `as ${startTag}-${t.type}`,
      );
      close(value.tokens.length);
    }
    const start = value.tokens.length;
    value.tokens.push(t.token);
    value.tokenLines.push(t.line);
    if (t.role === 'B' || (t.role === 'I' && !open)) open = { type: t.type, start, tag: t.tag, line: t.line };
    else if (t.role === 'S' || (t.role === 'E' && !open)) value.mentions.push({ doc, start, end: start + 1, type: t.type });
    if (t.role === 'E' && open) close(value.tokens.length);
    previous = t;
  });
  interrupt(null, lines.length);
  return { value, warnings };
}

/** Gold and response BIO must tokenise the text identically, or token spans mean nothing. */
export function checkBioAlignment(gold: BioDocument, response: BioDocument, files: { gold?: string; response?: string } = {}): void {
  const shared = Math.min(gold.tokens.length, response.tokens.length);
  for (let i = 0; i < shared; i++) {
    if (gold.tokens[i] !== response.tokens[i]) {
      throw new ScoringInputError(
        `token "${response.tokens[i]}" differs from gold token "${gold.tokens[i]}"${files.gold ? ` (${files.gold}, line ${gold.tokenLines[i]})` : ''}`,
        { file: files.response, line: response.tokenLines[i], hint: 'tag the same tokenisation as the gold file' },
      );
    }
  }
  if (gold.tokens.length !== response.tokens.length) {
    throw new ScoringInputError(`has ${response.tokens.length} tokens, the gold has ${gold.tokens.length}`, {
      file: files.response,
      hint: 'tag the same tokenisation as the gold file',
    });
  }
}
