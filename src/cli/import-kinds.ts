// Which files `metaserver import` reads, told by the end of their names, and what a file
// holds when it is not one of them — so a file is never taken for a plain-text article
// because nothing else fitted (a gzip file became 600,000 characters of U+FFFD that way, a
// BioC export saved as `.bioc-xml` one article of XML source). Given by name, such a file
// is refused; found in a directory, it is skipped and listed.
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { binaryContent } from '../formats/text-decoding.ts';
import { xmlFormatOf, xmlRootElement } from '../formats/xml-root.ts';

/** The ends of the names import reads, longest first where one ends another. */
const KINDS = ['.tar.gz', '.tgz', '.xml.gz', '.txt', '.nxml', '.xml', '.jsonl', '.json', '.pubtator'] as const;
export type Kind = (typeof KINDS)[number];
export const KNOWN_KINDS = '.txt, .pubtator, .nxml, .xml, .json, .jsonl, .tar.gz, .tgz and .xml.gz';

export const kindOf = (name: string): Kind | undefined => KINDS.find((k) => name.toLowerCase().endsWith(k));

/** PMC's bulk packages come with a list of their articles (`….filelist.txt`, `.csv`): never an article itself. */
export const PMC_FILE_LIST = 'the list of articles of a PMC bulk package (its articles are read from the .tar.gz)';
export const isPmcFileList = (name: string): boolean => /\.filelist\.(txt|csv)$/i.test(name);

/** The file's name without its kind (`.bioc.xml`, `.pubtator.txt` without both). */
export const stem = (file: string): string => {
  const name = basename(file);
  const kind = kindOf(name) ?? '';
  return name.slice(0, name.length - kind.length).replace(/\.(bioc|pubtator)$/i, '');
};

/** The first bytes of a file (enough to see what it holds). */
export function fileStart(file: string, size = 65536): Buffer {
  const fd = openSync(file, 'r');
  try {
    const start = Buffer.alloc(size);
    return start.subarray(0, readSync(fd, start, 0, size, 0));
  } finally {
    closeSync(fd);
  }
}

const PUBTATOR_START = /^\uFEFF?[^|\t\s]+\|t\|/;
const SUGGESTED: Record<string, string> = {
  'BioC XML': '.xml',
  JATS: '.nxml',
  'PubMed XML': '.xml',
  'BioC JSON': '.json',
  PubTator: '.pubtator',
  'plain text': '.txt',
};

/** What the bytes hold, and the format import would read it as under the right name. */
export function contentOf(start: Buffer): { what: string; format?: string } {
  const binary = binaryContent(start);
  if (binary !== undefined) return { what: binary };
  // The markers sought are ASCII, the same in every encoding a text file here may have.
  const text = start.toString('latin1');
  const root = xmlRootElement(text);
  if (root !== undefined) {
    const format = xmlFormatOf(root);
    return { what: `XML whose root element is <${root}>${format ? ` (${format})` : ''}`, format };
  }
  if (/^(\xEF\xBB\xBF)?\s*[[{]/.test(text)) return { what: 'JSON', format: 'BioC JSON' };
  if (PUBTATOR_START.test(text)) return { what: 'PubTator text', format: 'PubTator' };
  return { what: 'text', format: 'plain text' };
}

/** Why a file whose name import does not know is not read: what it holds, and the name to give it if it is one of the formats. */
export function unknownKindReason(start: Buffer): string {
  const { what, format } = contentOf(start);
  const rename = format ? `; if it is ${format}, give it a name ending in ${SUGGESTED[format]} and import it again` : '';
  return `metaserver import reads only files named ${KNOWN_KINDS}, and this one holds ${what}${rename}`;
}

/**
 * Why a `.txt` that is no plain text is refused: a file that is clearly XML of a known
 * format, or whole JSON, would otherwise be stored as one article of its source.
 */
export function notPlainText(content: string): string | undefined {
  const root = xmlRootElement(content.slice(0, 65536));
  const format = xmlFormatOf(root);
  if (format !== undefined || /^\uFEFF?\s*<\?xml\s/.test(content))
    return `the .txt holds ${format ?? 'XML'}${root ? ` (root element <${root}>)` : ''}, not plain text; name it ${SUGGESTED[format ?? 'BioC XML']} to import it as ${format ?? 'XML'}`;
  if (!/^\uFEFF?\s*[[{]/.test(content)) return undefined;
  try {
    JSON.parse(content);
  } catch {
    return undefined;
  }
  return 'the .txt holds JSON, not plain text; name it .json to import it as BioC JSON';
}
