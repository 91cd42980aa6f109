// `metaserver score NORM --gold GOLD [--type TYPE] RUN…`: gold and runs as PubTator or BioC
// files (told from the content), scored as BC5CDR's eval_mention.sh / eval_id.sh and
// NLM-Chem's evaluate.py score them (src/scoring/concept-norm.ts).

import { runName, type ScoreFiles, type ScoreFlags } from '../../scoring/score-files.ts';
import { readNormFile, type NormFile } from './norm-input.ts';
import { scoreNorm } from '../../scoring/concept-norm.ts';
import type { FamilyScoreCli } from '../family.ts';
import type { ScoreReport } from '../../scoring/index.ts';

/** evaluate.py refuses (exit 1) gold and run with other documents; we score them, saying so. */
function documentNote(gold: NormFile, run: NormFile, path: string): string[] {
  const goldDocs = new Set(gold.documents);
  const runDocs = new Set(run.documents);
  const missing = gold.documents.filter((d) => !runDocs.has(d));
  const extra = run.documents.filter((d) => !goldDocs.has(d));
  if (missing.length === 0 && extra.length === 0) return [];
  const parts = [
    missing.length > 0 ? `misses gold documents ${missing.join(', ')}` : '',
    extra.length > 0 ? `has documents not in the gold ${extra.join(', ')}` : '',
  ];
  return [
    `${path} ${parts.filter(Boolean).join(' and ')}: evaluate.py refuses such a pair unless given --no_document_verification; span and identifier are scored as with it`,
  ];
}

async function scoreNormFiles(runs: string[], o: ScoreFlags, files: ScoreFiles): Promise<ScoreReport['runs']> {
  const gold = readNormFile(await files.read(o.gold as string), o.gold as string);
  files.warn(gold.warnings);
  const scored: ScoreReport['runs'] = [];
  for (const path of runs) {
    const run = readNormFile(await files.read(path), path);
    files.warn([...run.warnings, ...documentNote(gold, run, path)]);
    const metrics = scoreNorm(gold.annotations, run.annotations, { type: o.type });
    scored.push({ run: runName(path), metrics: { ...metrics } });
  }
  return scored;
}

export const normScoreCli: FamilyScoreCli = {
  flags: ['type'],
  runs: 'PubTator or BioC XML/JSON files of mentions with ids',
  reads: ['pubtator', 'bioc-xml', 'bioc-json', 'bioc-jsonl'],
  score: scoreNormFiles,
};
