// Parsers for mention annotations: brat standoff `.ann` text and CoNLL-style BIO (IOB2).
// BIO has no character offsets, so its mentions are token spans (start inclusive, end
// exclusive, counted over the whole file); gold and response BIO files must then hold the
// same tokens, which checkBioAlignment verifies.

import { ScoringInputError } from './errors.ts';
import type { Mention } from './mention.ts';
import type { Parsed } from './types.ts';

/**
 * Text-bound annotations (`T1<TAB>Type start end<TAB>text`) of one brat `.ann` file; other
 * annotation kinds (relations, events, attributes, notes) are skipped. A discontinuous
 * span (`0 5;8 12`) counts from its first start to its last end, as one mention.
 */
export function parseBratMentions(text: string, options: { doc?: string; file?: string } = {}): Mention[] {
  const { doc = '', file } = options;
  const mentions: Mention[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
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
    mentions.push({ doc, start, end, type: match[1] });
  }
  return mentions;
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
  /** Read an I-X that follows O or another type as B-X (with a warning) instead of failing. */
  lenient?: boolean;
}

/** Lines that separate documents rather than carry tokens (CoNLL and JNLPBA conventions). */
function isDocumentMarker(line: string): boolean {
  return line.startsWith('-DOCSTART-') || line.startsWith('###');
}

export function parseBio(text: string, options: BioParseOptions = {}): Parsed<BioDocument> {
  const { doc = '', file, lenient = false } = options;
  const value: BioDocument = { tokens: [], tokenLines: [], mentions: [] };
  const warnings: string[] = [];
  let open: { type: string; start: number } | undefined;
  let sentenceStart = true;
  const close = () => {
    if (open) value.mentions.push({ doc, start: open.start, end: value.tokens.length, type: open.type });
    open = undefined;
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const lineNo = i + 1;
    if (line === '' || isDocumentMarker(line)) {
      close();
      sentenceStart = true;
      continue;
    }
    const fields = line.includes('\t') ? line.split('\t') : line.split(/\s+/);
    if (fields.length < 2) {
      throw new ScoringInputError(`expected "token<TAB>tag", found "${line}"`, { file, line: lineNo, hint: 'every token line needs a tag column' });
    }
    const tag = fields[fields.length - 1].trim();
    const match = /^([BI])-(.+)$/.exec(tag);
    if (tag !== 'O' && !match) {
      throw new ScoringInputError(`unknown tag "${tag}"`, { file, line: lineNo, hint: 'IOB2 tags are O, B-<type> or I-<type>' });
    }
    if (!match) close();
    else if (match[1] === 'B') {
      close();
      open = { type: match[2], start: value.tokens.length };
    } else if (!open || open.type !== match[2]) {
      const after = open ? `a ${open.type} mention` : sentenceStart ? 'a sentence start' : 'O';
      if (!lenient) {
        throw new ScoringInputError(`${tag} follows ${after}`, { file, line: lineNo, hint: `IOB2 mentions start with B-${match[2]}; use the lenient option to read it as B-${match[2]}` });
      }
      warnings.push(`${file ?? 'input'}, line ${lineNo}: ${tag} follows ${after}; read as B-${match[2]}`);
      close();
      open = { type: match[2], start: value.tokens.length };
    }
    value.tokens.push(fields[0]);
    value.tokenLines.push(lineNo);
    sentenceStart = false;
  }
  close();
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
