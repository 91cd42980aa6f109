// Readers for the DrugProt (BioCreative VII track 1) TSV forms:
//   entities   pmid<TAB>T1<TAB>CHEMICAL<TAB>start<TAB>end<TAB>text
//   relations  pmid<TAB>TYPE<TAB>Arg1:T1<TAB>Arg2:T2
//   pmids      one pmid a line
// They keep every line as written (duplicates, unknown types, ids the entities lack): what
// counts is decided by the scorer (rel.ts), as the official library decides it after
// reading. Only lines it could not read at all are refused here, with their number.

import { ScoringInputError } from './errors.ts';

/** One line of an entities file. */
export interface RelEntity {
  pmid: string;
  id: string;
  /** As written: CHEMICAL and GENE are what the official library pairs. */
  type: string;
  start: number;
  end: number;
  text: string;
}

/** One line of a relations file, arguments as written (`Arg1:T1`, or a bare `T1`). */
export interface RelRelation {
  pmid: string;
  type: string;
  arg1: string;
  arg2: string;
  line?: number;
}

/** Lines of a text without their end (`\n` or `\r\n`); the last line may be unterminated. */
function lines(text: string): string[] {
  const all = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  return all;
}

const NUMBER = /^\d+$/;

/** Entities in file order; a blank line is skipped (the official loader stops on one). */
export function parseRelEntities(text: string, o: { file?: string } = {}): RelEntity[] {
  const entities: RelEntity[] = [];
  lines(text).forEach((line, i) => {
    if (line === '') return;
    const fields = line.split('\t');
    const place = { file: o.file, line: i + 1 };
    if (fields.length !== 6) {
      throw new ScoringInputError(`has ${fields.length} tab-separated fields; an entity line has 6`, {
        ...place,
        hint: 'write pmid<TAB>T1<TAB>CHEMICAL<TAB>start<TAB>end<TAB>text',
      });
    }
    const [pmid, id, type, start, end, mention] = fields;
    if (!NUMBER.test(start) || !NUMBER.test(end)) {
      throw new ScoringInputError(`the offsets "${start}" and "${end}" are not both whole numbers`, {
        ...place,
        hint: 'fields 4 and 5 are the start and end character offsets',
      });
    }
    entities.push({ pmid, id, type, start: Number(start), end: Number(end), text: mention });
  });
  return entities;
}

/**
 * Relations in file order, duplicates kept; a blank line is skipped (as pandas skips it).
 * With `pmids`, a line whose first field is not one of them is left out unread, as the
 * official library filters a prediction file's raw lines before parsing it.
 */
export function parseRelRelations(text: string, o: { file?: string; pmids?: ReadonlySet<string> } = {}): RelRelation[] {
  const relations: RelRelation[] = [];
  lines(text).forEach((line, i) => {
    if (line === '') return;
    const fields = line.split('\t');
    if (o.pmids && !o.pmids.has(fields[0])) return;
    if (fields.length !== 4 || fields.some((f) => f === '')) {
      throw new ScoringInputError(`has ${fields.filter((f) => f !== '').length} non-empty tab-separated fields; a relation line has 4`, {
        file: o.file,
        line: i + 1,
        hint: 'write pmid<TAB>TYPE<TAB>Arg1:T1<TAB>Arg2:T2',
      });
    }
    const [pmid, type, arg1, arg2] = fields;
    relations.push({ pmid, type, arg1, arg2, line: i + 1 });
  });
  return relations;
}

/** The pmids list: each line stripped, as the official library reads it. */
export function parsePmids(text: string): Set<string> {
  return new Set(
    lines(text)
      .map((l) => l.trim())
      .filter((l) => l !== ''),
  );
}
