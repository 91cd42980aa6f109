// `metaserver score CID --gold GOLD RUN...`: BC5CDR's eval_relation.sh (BC5CDR_Evaluation
// 0.0.3, `Evaluate relation CID <format>`), PubTator or BioC told from the content, read
// and counted as the tool reads and counts (src/scoring/concept-relations.ts):
// `runs[i].metrics` = {tp, fp, fn, p, r, f}.

import { FormatError } from '../../formats/common.ts';
import { readBiocJson } from '../../formats/bioc-json.ts';
import { readBiocXml } from '../../formats/bioc-xml.ts';
import type { BiocCollection } from '../../formats/bioc-model.ts';
import { runName, type ScoreFiles } from '../../scoring/score-files.ts';
import { ScoringInputError, readCidBioc, readCidPubTator, scoreCid, type CidRelation, type ScoreReport } from '../../scoring/index.ts';
import type { FamilyScoreCli } from '../family.ts';

/** The relation types the tool is asked for (eval_relation.sh passes `CID`). */
const CID_TYPES: ReadonlySet<string> = new Set(['CID']);

/** The tool reads relations of the document (its annotations and relations), not of passages. */
function biocRecords(collection: BiocCollection) {
  return collection.documents.flatMap((d) => [...(d.annotations ?? []), ...d.relations].map((x) => ({ doc: d.id, infons: x.infons })));
}

async function cidRelations(files: ScoreFiles, path: string): Promise<CidRelation[]> {
  const content = await files.read(path);
  const start = content.replace(/^\uFEFF/, '').trimStart()[0];
  if (start !== '<' && start !== '{' && start !== '[') return readCidPubTator(content, CID_TYPES, path);
  try {
    return readCidBioc(biocRecords(start === '<' ? readBiocXml(content) : readBiocJson(content)), CID_TYPES);
  } catch (err) {
    if (err instanceof FormatError) throw new ScoringInputError(err.message, { file: path, hint: 'give a BioC XML/JSON or PubTator file' });
    throw err;
  }
}

export const cidScoreCli: FamilyScoreCli = {
  flags: [],
  runs: "PubTator or BioC files with CID relations (BC5CDR's eval_relation.sh)",
  reads: ['pubtator', 'bioc-xml', 'bioc-json'],
  async score(runs, o, files) {
    const gold = await cidRelations(files, o.gold!);
    const scored: ScoreReport['runs'] = [];
    for (const path of runs) scored.push({ run: runName(path), metrics: { ...scoreCid(gold, await cidRelations(files, path)) } });
    return scored;
  },
};
