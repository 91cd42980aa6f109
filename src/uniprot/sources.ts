// Parsing the release files: the list of primary accessions (plain or FASTA) and
// UniProt's sec_ac.txt. Both are streamed (gzip or not, src/shared/lines.ts); bad lines
// are counted and a few quoted, so a build over a 250M-line file reports problems without
// drowning the terminal.

import { readLines } from '../shared/lines.ts';
import { encodeAccession } from './codec.ts';

export interface SkippedLines {
  count: number;
  /** The first few, as `line N: text`. */
  examples: string[];
}

const EXAMPLES = 5;

function skip(skipped: SkippedLines, lineNo: number, line: string): void {
  skipped.count++;
  if (skipped.examples.length < EXAMPLES) skipped.examples.push(`line ${lineNo}: ${line.slice(0, 80)}`);
}

/**
 * The accession of a FASTA header: `>sp|P12345|NAME …`, `>tr|…`, or a bare `>P12345 …`.
 */
function accessionOfFastaHeader(line: string): string {
  const bar = line.indexOf('|');
  if (bar >= 0) {
    const end = line.indexOf('|', bar + 1);
    return line.slice(bar + 1, end < 0 ? undefined : end);
  }
  return line.slice(1).trim().split(/\s/, 1)[0];
}

/**
 * Calls `onCode` with the code of every primary accession in the file. The format is
 * decided by the first non-empty line: `>` means FASTA (sequence lines are skipped),
 * otherwise one accession per line (first token; `#` lines are comments).
 */
export async function readPrimaryCodes(path: string, onCode: (code: number) => void): Promise<SkippedLines> {
  const skipped: SkippedLines = { count: 0, examples: [] };
  let fasta: boolean | undefined;
  let lineNo = 0;
  for await (const raw of readLines(path)) {
    lineNo++;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    fasta ??= line.startsWith('>');
    let accession: string;
    if (fasta) {
      if (!line.startsWith('>')) continue;
      accession = accessionOfFastaHeader(line);
    } else {
      accession = line.split(/\s/, 1)[0];
    }
    const code = encodeAccession(accession);
    if (code < 0) skip(skipped, lineNo, raw);
    else onCode(code);
  }
  return skipped;
}

/**
 * Calls `onPair` for each (secondary, primary) pair of a sec_ac.txt file: everything up to
 * the `Secondary AC  Primary AC` line is free text, then an underscore line, then pairs.
 */
export async function readSecondaryPairs(path: string, onPair: (secondary: number, primary: number) => void): Promise<SkippedLines> {
  const skipped: SkippedLines = { count: 0, examples: [] };
  let inTable = false;
  let lineNo = 0;
  for await (const raw of readLines(path)) {
    lineNo++;
    if (!inTable) {
      inTable = /^\s*Secondary AC\s+Primary AC\s*$/i.test(raw);
      continue;
    }
    const line = raw.trim();
    if (line === '' || /^_+$/.test(line)) continue;
    const [secondary, primary, extra] = line.split(/\s+/);
    const s = encodeAccession(secondary);
    const p = encodeAccession(primary ?? '');
    if (s < 0 || p < 0 || extra !== undefined) skip(skipped, lineNo, raw);
    else onPair(s, p);
  }
  if (!inTable) {
    throw new Error(`${path}: no "Secondary AC  Primary AC" line found; is this UniProt's sec_ac.txt?`);
  }
  return skipped;
}
