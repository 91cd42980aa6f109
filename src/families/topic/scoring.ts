// TOPIC scoring: gold standards and runs in the LitCovid track's forms (the official wide
// CSV `PMID,<label>,…` of 0/1 or probabilities, or the list form `PMID,label;label`, comma-
// or TAB-separated), scored by the scoring library's port of the track's evaluation script.
// The list form's labels are the challenge's set (LitCovid's seven unless it names others;
// `metaserver score TOPIC` knows no challenge: LitCovid's), the wide form's its header's.
// `metaserver score TOPIC` refuses a run without the gold standard's PMIDs, as the script
// does; leaderboards score a missing document as predicting no label (a server may not
// have answered every article) and report how many were missing.

import { runName } from '../../scoring/score-files.ts';
import { readTopics, scoreTopics, type TopicDoc, type TopicSet } from '../../scoring/topic.ts';
import { needText } from '../common/upload.ts';
import type { CorpusDocument } from '../../formats/bioc-corpus.ts';
import type { FamilyScoring, UploadContext } from '../family.ts';
import { LITCOVID_TOPICS, topicLabelsOf } from './labels.ts';
import type { TopicResult } from './types.ts';
import { withoutKeys } from '../common/documents.ts';

const TASK = 'TOPIC';

/** An online run in the list form: `PMID<TAB>label;label`, one line per answered article. */
function topicRunTsv(run: TopicSet): string {
  let out = '';
  for (const [id, doc] of run.docs) out += `${id}\t${[...doc.labels].join(';')}\n`;
  return out;
}

function topicRunOf(answers: ReadonlyArray<{ doc: string; value: unknown }>): TopicSet {
  const docs = new Map<string, TopicDoc>();
  answers.forEach((a, i) => {
    const items = a.value as TopicResult;
    const confidence = new Map<string, number>();
    for (const item of items) if (item.confidence !== undefined) confidence.set(item.label, item.confidence);
    docs.set(a.doc, { labels: new Set(items.map((t) => t.label)), ...(confidence.size > 0 ? { confidence } : {}), line: i + 1 });
  });
  return { labels: [], docs, form: 'list' };
}

/**
 * Topics from a corpus: the `identifier` infon of annotations typed Topic (as the BioC
 * export writes them), each document a line of the list form — also one without topics,
 * which the instance-based measures count. A label outside the challenge's set is left out, warned.
 */
function corpusTopics(documents: readonly CorpusDocument[], context?: UploadContext): { body: string; warnings: string[] } {
  const known = new Set(topicLabelsOf(context));
  const unknown = new Set<string>();
  let body = '';
  for (const doc of documents) {
    const labels = new Set<string>();
    for (const a of doc.annotations) {
      if (!/^topic$/i.test(a.type ?? '')) continue;
      const label = (a.infons.identifier ?? '').trim();
      if (known.has(label)) labels.add(label);
      else unknown.add(label);
    }
    body += `${doc.id}\t${[...labels].join(';')}\n`;
  }
  const warnings =
    unknown.size > 0
      ? [
          `${unknown.size} topic(s) are not labels of this challenge and were left out (${[...unknown]
            .slice(0, 5)
            .map((l) => JSON.stringify(l))
            .join(', ')})`,
        ]
      : [];
  return { body, warnings };
}

export const topicScoring: FamilyScoring<TopicSet, TopicSet> = {
  mainFigure: 'micro.f',
  options: [],
  upload: 'tsv',
  goldForm: 'PMID,label;label (or the official PMID,<label>,… table of 0/1)',
  parseGold(body, context) {
    const labels = topicLabelsOf(context);
    const gold = readTopics(needText(TASK, body, 'gold standard'), { file: 'gold', role: 'gold', labels });
    let items = 0;
    for (const doc of gold.docs.values()) items += doc.labels.size;
    // The wide form names its own labels: scored so, but servers' answers are checked against the challenge's.
    const others = gold.labels.length !== labels.length || gold.labels.some((l) => !labels.includes(l));
    const warnings = others
      ? [
          `the gold standard's labels (${gold.labels.join(', ')}) are not this challenge's (${labels.join(', ')}), which servers' answers are checked against; set the challenge's topicLabels to the gold standard's`,
        ]
      : [];
    return { gold, documents: gold.docs.size, items, warnings };
  },
  goldDocuments: (gold) => gold.docs.keys(),
  withoutDocuments: (gold, documents) => ({ ...gold, docs: withoutKeys(gold.docs, documents) }),
  parseRun: (body, _columns, context) => ({
    run: readTopics(needText(TASK, body, 'run'), { file: 'run', role: 'run', labels: topicLabelsOf(context) }),
    warnings: [],
  }),
  onlineRun: topicRunOf,
  score: (gold, run) => ({ metrics: { ...scoreTopics(gold, run, { missing: 'none' }) } }),
  exportTsv: topicRunTsv,
  corpus: {
    takes: 'the identifier infon (the label) of annotations typed Topic; every document is a line, also one without topics',
    gold: corpusTopics,
    run: corpusTopics,
  },
  cli: {
    flags: [],
    runs: 'prediction files (PMID,<label>,… probabilities, or PMID,label;label)',
    reads: ['litcovid-table', 'litcovid-list'],
    async score(runs, flags, files) {
      const goldFile = flags.gold!;
      const gold = readTopics(await files.read(goldFile), { file: goldFile, role: 'gold', labels: LITCOVID_TOPICS });
      const scored = [];
      for (const file of runs) {
        const run = readTopics(await files.read(file), { file, role: 'run', labels: gold.labels });
        scored.push({ run: runName(file), metrics: { ...scoreTopics(gold, run, { missing: 'refuse', runFile: file }) } });
      }
      return scored;
    },
  },
};
