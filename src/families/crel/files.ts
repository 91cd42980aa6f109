// CREL gold standards and runs as text: PubTator lines, as BC5CDR and BioRED ship them —
// title and abstract lines (skipped), mention lines `PMID<TAB>start<TAB>end<TAB>text<TAB>type<TAB>ids`
// (they say which namespace a bare id of the relations is in) and relation lines
// `PMID<TAB>Type<TAB>id1<TAB>id2[<TAB>Novel|No]` (BC5CDR's runs put a confidence in the
// fifth column: read and not scored). A file of relation lines alone is read
// too when its ids are written `NS:accession`. Ids are read into the stored form: written
// with a namespace as is; bare, in the namespace of the document's mentions carrying that
// accession, else (a CID line) as the chemical's and the disease's MeSH ids. Every error
// names the line.

import { ScoringInputError, type ConceptRelation } from '../../scoring/index.ts';
import { formatConceptId, readConceptId, splitIdColumn } from '../../tasks/concept-ids.ts';
import { NOVELTIES, type Novelty } from './types.ts';

/** BC5CDR's relation: its third column is the chemical, its fourth the disease. */
const CID = 'CID';
const CID_TYPES = ['Chemical', 'Disease'] as const;

const DIGITS = /^\d+$/;

interface Line {
  n: number;
  columns: string[];
}

/** Bare accession → stored id, per document, from the mention lines. */
function mentionIds(lines: readonly Line[]): Map<string, Map<string, string>> {
  const byDoc = new Map<string, Map<string, string>>();
  for (const { columns } of lines) {
    const [doc, , , , type, ids] = columns;
    const known = byDoc.get(doc) ?? new Map<string, string>();
    byDoc.set(doc, known);
    for (const part of splitIdColumn(ids, type)) {
      const id = readConceptId(part, type);
      if (id) known.set(part, formatConceptId(id));
    }
  }
  return byDoc;
}

/** One id of a relation line in the stored form, or an error naming the line. */
function relationId(written: string, doc: string, type: string, place: number, known: Map<string, string> | undefined, where: Where) {
  const withNamespace = readConceptId(written);
  if (withNamespace) return formatConceptId(withNamespace);
  const fromMention = known?.get(written);
  if (fromMention) return fromMention;
  const cidType = type === CID ? CID_TYPES[place] : undefined;
  const read = cidType ? readConceptId(written, cidType) : undefined;
  if (read && written !== '') return formatConceptId(read);
  throw new ScoringInputError(
    `the id ${JSON.stringify(written)} has no namespace and no mention of document ${doc} carries it, so its namespace is unknown`,
    { ...where, hint: 'write it NS:accession (MESH:D003693), or give the mention lines of the document with the relations' },
  );
}

interface Where {
  file?: string;
  line: number;
}

/** The relations of a PubTator text (relation lines, with or without mention lines). */
export function readRelationLines(text: string, file?: string): { relations: ConceptRelation[]; documents: Set<string> } {
  const mentions: Line[] = [];
  const relationLines: Line[] = [];
  const documents = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const header = /^([^|\t]+)\|[ta]\|/.exec(line);
    if (header) {
      documents.add(header[1]);
      return;
    }
    const columns = line.split('\t');
    if (columns.length >= 5 && DIGITS.test(columns[1]) && DIGITS.test(columns[2])) mentions.push({ n: i + 1, columns });
    else if (columns.length === 4 || columns.length === 5) relationLines.push({ n: i + 1, columns });
    else
      throw new ScoringInputError(
        'neither a mention line (PMID, start, end, text, type, ids) nor a relation line (PMID, type, id1, id2, novelty?)',
        {
          file,
          line: i + 1,
          hint: 'write relations PMID<TAB>Type<TAB>id1<TAB>id2[<TAB>Novel|No]',
        },
      );
    documents.add(columns[0]);
  });
  const known = mentionIds(mentions);
  const relations = relationLines.map(({ n, columns }): ConceptRelation => {
    const [doc, type, id1, id2, novelty] = columns;
    const where = { file, line: n };
    if (type === '') throw new ScoringInputError('the relation type (second column) is empty', where);
    // BC5CDR's runs write a confidence there, BioRED its novelty.
    const isNovelty = NOVELTIES.includes(novelty as Novelty);
    if (novelty !== undefined && novelty !== '' && !isNovelty && !Number.isFinite(Number(novelty)))
      throw new ScoringInputError(`the fifth column ${JSON.stringify(novelty)} is neither a novelty (Novel, No) nor a confidence`, where);
    const relation: ConceptRelation = {
      doc,
      type,
      concept1: relationId(id1, doc, type, 0, known.get(doc), where),
      concept2: relationId(id2, doc, type, 1, known.get(doc), where),
    };
    if (isNovelty) relation.novelty = novelty;
    return relation;
  });
  return { relations, documents };
}

/** Relations as relation lines in the stored form (which readRelationLines reads back). */
export function writeRelationLines(relations: readonly ConceptRelation[]): string {
  return relations.map((r) => `${[r.doc, r.type, r.concept1, r.concept2, ...(r.novelty ? [r.novelty] : [])].join('\t')}\n`).join('');
}
