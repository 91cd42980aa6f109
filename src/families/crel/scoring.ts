// CREL scoring: gold standards and runs are PubTator relation lines (files.ts; from a
// corpus, corpus.ts), online answers the stored relations, the organiser id standing for
// the PMID. The leaderboard and `metaserver score CREL` give BioRED's four settings
// (src/scoring/concept-relations.ts); `metaserver score CID` is BC5CDR's eval_relation.sh.

import { FormatError } from '../../formats/common.ts';
import type { CorpusDocument } from '../../formats/bioc-corpus.ts';
import { readBiocJson, readBiocJsonLines } from '../../formats/bioc-json.ts';
import { allAnnotations, allRelations, type BiocCollection } from '../../formats/bioc-model.ts';
import { readBiocXml } from '../../formats/bioc-xml.ts';
import { corpusFormatOf } from '../../formats/corpus-file.ts';
import { runName, type ScoreFiles } from '../../scoring/score-files.ts';
import { ScoringInputError, scoreBiored, type ConceptRelation, type ScoreReport } from '../../scoring/index.ts';
import type { FamilyScoreCli, FamilyScoring } from '../family.ts';
import { corpusRelations } from './corpus.ts';
import { readRelationLines, writeRelationLines } from './files.ts';
import { cidScoreCli } from './cid.ts';
import type { CrelResult } from './types.ts';
import { withoutIds } from '../common/documents.ts';

export interface CrelGold {
  relations: ConceptRelation[];
  documents: Set<string>;
}

// Without a literal "<TAB>": the leaderboard checks such forms' column counts, and PubTator text mixes lines of several.
const FORM = 'PubTator text: relation lines PMID, Type, id1, id2[, Novel|No] separated by TABs, with the mention lines that carry bare ids';

function text(body: unknown, what: string): string {
  if (typeof body !== 'string')
    throw new ScoringInputError(`the CREL ${what} is text`, { hint: `send ${FORM} as text/tab-separated-values` });
  return body;
}

/**
 * A BioC collection's documents as far as relations need them: annotations' ids and
 * relations, without checking the text at each annotation's span (BC5CDR's own BioC sample
 * holds annotations whose offsets miss their text, and its tool never looks).
 */
function relationDocuments(collection: BiocCollection): CorpusDocument[] {
  return collection.documents.map((d) => ({
    id: d.id,
    text: '',
    sections: [],
    annotations: allAnnotations(d).map((a, i) => ({
      id: a.id === '' ? `#${i + 1}` : a.id,
      text: a.text,
      type: a.infons.type,
      infons: a.infons,
    })),
    relations: allRelations(d).map((r) => ({
      id: r.id,
      type: r.infons.type ?? r.infons.relation,
      args: r.nodes.map((n) => n.refid),
      infons: r.infons,
    })),
  }));
}

/** A gold or run file of `metaserver score CREL`: PubTator text, or BioC (told from the content). */
async function relationsOfFile(files: ScoreFiles, path: string): Promise<{ relations: ConceptRelation[]; documents: Set<string> }> {
  const content = await files.read(path);
  const format = corpusFormatOf(content);
  if (format === 'pubtator') return readRelationLines(content, path);
  let documents: CorpusDocument[];
  try {
    documents = relationDocuments(
      format === 'bioc-xml' ? readBiocXml(content) : format === 'bioc-jsonl' ? readBiocJsonLines(content) : readBiocJson(content),
    );
  } catch (err) {
    if (err instanceof FormatError) throw new ScoringInputError(err.message, { file: path, hint: 'give a BioC XML/JSON or PubTator file' });
    throw err;
  }
  const { relations, warnings } = corpusRelations(documents);
  files.warn(warnings.map((w) => `${path}: ${w}`));
  return { relations, documents: new Set(documents.map((d) => d.id)) };
}

const crelCli: FamilyScoreCli = {
  flags: [],
  runs: 'PubTator or BioC files with relations between concepts (BioRED: pair, pair+type, pair+novelty, all)',
  reads: ['pubtator', 'bioc-xml', 'bioc-json', 'bioc-jsonl'],
  async score(runs, o, files) {
    const gold = await relationsOfFile(files, o.gold!);
    const scored: ScoreReport['runs'] = [];
    for (const path of runs) {
      const run = await relationsOfFile(files, path);
      scored.push({
        run: runName(path),
        metrics: {
          ...scoreBiored(
            gold.relations,
            run.relations.filter((r) => gold.documents.has(r.doc)),
          ),
        },
      });
    }
    return scored;
  },
};

export const crelScoring: FamilyScoring<CrelGold, ConceptRelation[]> = {
  mainFigure: 'all.f',
  options: [],
  upload: 'tsv',
  goldForm: FORM,
  parseGold(body) {
    const { relations, documents } = readRelationLines(text(body, 'gold standard'), 'gold standard');
    if (documents.size === 0) throw new ScoringInputError('the CREL gold standard names no document', { hint: `send ${FORM}` });
    return { gold: { relations, documents }, documents: documents.size, items: relations.length, warnings: [] };
  },
  goldDocuments: (gold) => gold.documents,
  withoutDocuments: (gold, documents) => ({
    relations: gold.relations.filter((r) => !documents.has(r.doc)),
    documents: withoutIds(gold.documents, documents),
  }),
  parseRun: (body) => ({ run: readRelationLines(text(body, 'run'), 'run').relations, warnings: [] }),
  onlineRun: (answers) =>
    answers.flatMap((a) =>
      ((a.value as CrelResult | null)?.relations ?? []).map((r) => ({
        doc: a.doc,
        type: r.type,
        concept1: r.concept1,
        concept2: r.concept2,
        ...(r.novelty ? { novelty: r.novelty } : {}),
      })),
    ),
  // As BioRED's track: relations of documents outside the gold standard are not scored.
  score: (gold, run) => ({
    metrics: {
      ...scoreBiored(
        gold.relations,
        run.filter((r) => gold.documents.has(r.doc)),
      ),
    },
  }),
  exportTsv: (run) => writeRelationLines(run),
  cli: crelCli,
  scorers: { CID: cidScoreCli },
};
