// NORM's reading (apart from src/scoring, which the corpus readers import): the annotations of a corpus file (PubTator or BioC, told from the content) as NORM scores
// them (concept-norm.ts): each tool's own reading of the ids kept as written — BC5CDR's tool
// reads PubTator's id column and BioC's `MESH` (else `OMIM`) infon, evaluate.py BioC's
// `identifier` infon (a PubTator file is read as the BioC file it converts to: the id
// column as `identifier`). Every id is checked as src/tasks/concept-ids.ts reads it, so a
// composite id written wrong is refused with its file and line (PubTator) or annotation
// (BioC), as the house refuses bad input; the tools would count it as written.
// BC5CDR's individual mentions (CompositeRole IndividualMention) are read with their
// covering span, as before: their ids count, their span does not (concept-norm.ts). Any
// other discontinuous annotation is left out, named in `warnings`: NORM's spans are one
// each, and the covering span would hold text the annotation does not.

import { FormatError } from '../../formats/common.ts';
import { corpusFormatOf, readCorpusFile } from '../../formats/corpus-file.ts';
import { isDiscontinuous, type CorpusAnnotation } from '../../formats/bioc-corpus.ts';
import { conceptIdProblem, readConceptId, splitIdColumn } from '../../tasks/concept-ids.ts';
import type { NormAnnotation } from '../../scoring/concept-norm.ts';
import { ScoringInputError } from '../../scoring/errors.ts';
import { discontinuousWarnings, type DiscontinuousLeftOut } from '../common/discontinuous.ts';
import { isIndividualMention } from './corpus.ts';

export interface NormFile {
  annotations: NormAnnotation[];
  /** The documents of the file (a document without annotations still counts for evaluate.py's check). */
  documents: string[];
  /** What was left out and why (discontinuous annotations), for the caller to show. */
  warnings: string[];
}

/** Where an annotation stands: PubTator's annotations are named `L<line>` by the reader. */
function lineOf(a: CorpusAnnotation): number | undefined {
  const m = /^L(\d+)$/.exec(a.id);
  return m ? Number(m[1]) : undefined;
}

function checkIds(raw: string | undefined, a: CorpusAnnotation, doc: string, file: string, pubtator: boolean, namespace?: string): void {
  for (const part of splitIdColumn(raw, a.type)) {
    // BC5CDR's BioC writes bare accessions under a key naming their namespace (`MESH`, `OMIM`).
    const id = namespace !== undefined && !part.includes(':') ? { namespace, accession: part.trim() } : readConceptId(part, a.type);
    const problem = id && conceptIdProblem(id);
    if (!problem) continue;
    const where = pubtator ? {} : { reason: `document ${doc}, annotation ${a.id}` };
    throw new ScoringInputError(`the id column "${raw}" is not read as ids: ${problem}`, {
      file,
      line: pubtator ? lineOf(a) : undefined,
      hint: `write the ids of a composite mention joined by "|" (BC5CDR: D001943|D009369), each NS:accession or a bare accession of the type's namespace; -1 for none${where.reason ? ` (${where.reason})` : ''}`,
    });
  }
}

/** The annotations with a span of a PubTator or BioC file, as both NORM tools read them. */
export function readNormFile(content: string, file: string): NormFile {
  const format = corpusFormatOf(content);
  let documents;
  try {
    documents = readCorpusFile(content, file, format);
  } catch (err) {
    if (err instanceof FormatError)
      throw new ScoringInputError(err.message, { file, hint: 'give a BioC XML/JSON or PubTator file whose annotations fit their text' });
    throw err;
  }
  const pubtator = format === 'pubtator';
  const annotations: NormAnnotation[] = [];
  const discontinuous: DiscontinuousLeftOut[] = [];
  for (const d of documents) {
    for (const a of d.annotations) {
      if (a.start === undefined || a.end === undefined) continue;
      const individual = !pubtator && isIndividualMention(a);
      if (isDiscontinuous(a) && !individual) {
        discontinuous.push({ document: d.id, annotation: a });
        continue;
      }
      const type = a.type ?? '';
      const bc5cdrKey = pubtator ? 'identifier' : a.infons.MESH !== undefined ? 'MESH' : 'OMIM';
      const bc5cdr = a.infons[bc5cdrKey];
      const identifier = a.infons.identifier;
      checkIds(bc5cdr, a, d.id, file, pubtator, bc5cdrKey === 'identifier' ? undefined : bc5cdrKey);
      if (identifier !== bc5cdr) checkIds(identifier, a, d.id, file, pubtator);
      annotations.push({
        doc: d.id,
        start: a.start,
        end: a.end,
        type,
        text: a.text,
        bc5cdrIds: bc5cdr,
        identifier,
        individual,
      });
    }
  }
  const warnings = discontinuousWarnings(discontinuous, 'NORM', 'an annotation').map((w) => `${file}: ${w}`);
  return { annotations, documents: documents.map((d) => d.id), warnings };
}
