// Release lists of concept ids that MENTION answers are checked against (the `lookup` of
// the family, setting `conceptIdLists`): a comma-separated list of files, each one of
// - a MeSH descriptor or supplementary-concept file as NLM distributes it: XML
//   (desc2025.xml, supp2025.xml: every `<DescriptorUI>` and `<SupplementalRecordUI>`) or
//   the ASCII form (d2025.bin, c2025.bin: `UI = D000001` lines) → MESH;
// - an NCBI gene_info file (TAB-separated, GeneID in column 2, `#tax_id` header) → NCBIGene;
// - a plain list, one `NS:accession` a line (`#` starts a comment), any namespace.
// The kind is told from the content. Files are read line by line in chunks, so a whole
// MeSH release loads in seconds; numeric accessions (gene ids, taxa, ChEBI) are kept as
// sorted numbers, so a species' gene_info costs a few megabytes. A whole all-species
// gene_info (tens of millions of genes) is better cut to the species a challenge is about.

import { basename } from 'node:path';
import { closeSync, openSync, readSync } from 'node:fs';
import { NAMESPACES, readConceptId, type ConceptId } from '../../tasks/concept-ids.ts';
import { findSorted } from '../../shared/sorted.ts';

/** What a lookup says of an id whose namespace has a list: whether it is in it, and which file. */
export interface ListedId {
  known: boolean;
  /** The namespace's name for people (MeSH). */
  title: string;
  /** The file(s) the namespace's list came from, by name. */
  file: string;
}

interface NamespaceList {
  files: string[];
  words: Set<string>;
  numbers: number[];
  sorted?: Uint32Array;
}

export class ConceptIdLists {
  private readonly lists = new Map<string, NamespaceList>();

  add(namespace: string, accession: string, file: string): void {
    let list = this.lists.get(namespace);
    if (!list) {
      list = { files: [], words: new Set(), numbers: [] };
      this.lists.set(namespace, list);
    }
    if (!list.files.includes(file)) list.files.push(file);
    if (/^\d{1,9}$/.test(accession)) list.numbers.push(Number(accession));
    else list.words.add(accession);
  }

  /** Sorts the numbers once everything is added. */
  seal(): this {
    for (const list of this.lists.values()) {
      list.sorted = Uint32Array.from(list.numbers).sort();
      list.numbers = [];
    }
    return this;
  }

  /** Undefined when no list of the id's namespace is loaded (nothing to say). */
  lookup(id: ConceptId): ListedId | undefined {
    const list = this.lists.get(id.namespace);
    if (!list) return undefined;
    const numeric = /^\d{1,9}$/.test(id.accession);
    const known = numeric ? findSorted(list.sorted ?? new Uint32Array(), Number(id.accession)) >= 0 : list.words.has(id.accession);
    return { known, title: NAMESPACES[id.namespace]?.title ?? id.namespace, file: list.files.join(', ') };
  }

  /** For the start-up log and /healthz: each namespace, its count and files. */
  get release(): string {
    const parts = [...this.lists.entries()].map(
      ([ns, l]) => `${ns} ${(l.sorted?.length ?? l.numbers.length) + l.words.size} ids (${l.files.join(', ')})`,
    );
    return parts.join('; ');
  }
}

type LineReader = (line: string, add: (namespace: string, accession: string) => void) => void;

/**
 * MeSH XML: each record's own `<DescriptorUI>` or `<SupplementalRecordUI>`; a UI right
 * after `<DescriptorReferredTo>` (pharmacological actions, see-related, a supplementary
 * record's `*D…` heading) names another record and is skipped, so a file of a few records
 * lists those only.
 */
function meshXmlReader(): LineReader {
  let referred = false;
  return (line, add) => {
    for (const m of line.matchAll(/<(DescriptorReferredTo)>|<(?:DescriptorUI|SupplementalRecordUI)>\*?([CD]\d+)<\//g)) {
      if (m[1]) referred = true;
      else if (referred) referred = false;
      else add('MESH', m[2]);
    }
  };
}

type Kind = 'meshXml' | 'meshAscii' | 'geneInfo' | 'plain';

const READERS: Record<Exclude<Kind, 'plain'>, () => LineReader> = {
  meshXml: meshXmlReader,
  meshAscii: () => (line, add) => {
    const m = /^UI = ([CD]\d+)\s*$/.exec(line);
    if (m) add('MESH', m[1]);
  },
  geneInfo: () => (line, add) => {
    if (line.startsWith('#') || line === '') return;
    const id = line.split('\t')[1];
    if (id && /^\d+$/.test(id)) add('NCBIGene', id);
  },
};

/** The file's kind from its first lines. */
function kindOf(head: string): Kind {
  if (/<(?:DescriptorRecordSet|SupplementalRecordSet|DescriptorRecord|SupplementalRecord)\b/.test(head)) return 'meshXml';
  if (/^\*NEWRECORD\s*$/m.test(head) || /^UI = [CD]\d+\s*$/m.test(head)) return 'meshAscii';
  if (/^#tax_id\tGeneID\b/m.test(head) || /^\d+\t\d+\t/m.test(head)) return 'geneInfo';
  return 'plain';
}

const CHUNK = 1 << 22;

/** Calls `each` on every line of the file (LF or CR LF), reading it in chunks; returns the first chunk. */
function eachLine(path: string, each: (line: string, number: number) => void, first: (head: string) => void): void {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK);
    let rest = '';
    let number = 0;
    let started = false;
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      const text = rest + buffer.toString('utf8', 0, n);
      if (!started) first(text.slice(0, 1 << 16));
      started = true;
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) each(line.replace(/\r$/, ''), ++number);
    }
    if (rest !== '') each(rest.replace(/\r$/, ''), ++number);
  } finally {
    closeSync(fd);
  }
}

/** Reads a plain list's line, refusing what is not an id (the organiser's file: its line named). */
function plainLine(line: string, number: number, path: string, add: (namespace: string, accession: string) => void): void {
  const text = line.replace(/#.*$/, '').trim();
  if (text === '') return;
  const id = text.includes(':') ? readConceptId(text) : undefined;
  if (!id)
    throw new Error(
      `${path}:${number}: ${JSON.stringify(text.slice(0, 60))} is not an id "NS:accession" (MESH:D003693), nor is the file a MeSH or gene_info file`,
    );
  add(id.namespace, id.accession);
}

/** The lists of the comma-separated files in `paths`; a file that yields no id stops the start with its name. */
export function loadConceptIdLists(paths: string): ConceptIdLists {
  const lists = new ConceptIdLists();
  for (const path of paths
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const file = basename(path);
    let read: LineReader | undefined;
    let count = 0;
    const add = (namespace: string, accession: string) => {
      lists.add(namespace, accession, file);
      count++;
    };
    eachLine(
      path,
      (line, number) => (read ? read(line, add) : plainLine(line, number, path, add)),
      (head) => {
        const kind = kindOf(head);
        read = kind === 'plain' ? undefined : READERS[kind]();
      },
    );
    if (count === 0)
      throw new Error(`${path}: no concept id found (expected a MeSH XML or ASCII file, an NCBI gene_info file, or NS:accession lines)`);
  }
  return lists.seal();
}
