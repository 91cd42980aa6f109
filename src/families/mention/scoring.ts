// MENTION scoring: gold and offline runs as JSON holding brat `.ann` texts per organiser
// id; online answers as mentions; strict / left / right match (scoreMentions). BIO is not
// accepted for uploads: its mentions are token spans, which cannot be compared with the
// character offsets of online answers (`metaserver score` reads BIO files, gold and runs
// alike).

import { duplicateMentionWarnings, mentionDocumentCounts, parseBratMentions, scoreMentions, type Mention } from '../../scoring/index.ts';
import { scoreNorm, storedNormAnnotation } from '../../scoring/concept-norm.ts';
import { jsonDocuments } from '../common/upload.ts';
import type { FamilyScoring } from '../family.ts';
import { normScoreCli } from './norm-cli.ts';
import { scoreMentionFiles } from './score-cli.ts';
import { UNTYPED, type MentionItem } from './types.ts';
import { withoutIds } from '../common/documents.ts';

const TASK = 'MENTION';

export interface MentionGold {
  mentions: Mention[];
  docs: Set<string>;
}

function bratDocuments(body: unknown, what: string): { mentions: Mention[]; docs: Set<string> } {
  const mentions: Mention[] = [];
  const docs = jsonDocuments(TASK, body, what, ['ann']);
  for (const [id, doc] of docs) mentions.push(...parseBratMentions(doc.ann, { doc: id, file: `documents["${id}"].ann` }));
  return { mentions, docs: new Set(docs.keys()) };
}

export const mentionScoring: FamilyScoring<MentionGold, Mention[]> = {
  mainFigure: 'strict.f',
  options: ['singleClass'],
  upload: 'json',
  goldForm: '{"documents": {"<id>": {"ann": "<brat .ann text>"}}}',
  parseGold(body) {
    const gold = bratDocuments(body, 'gold standard');
    // Scoring counts a repeated mention once (src/scoring/mention.ts); say which were repeated.
    return {
      gold,
      documents: gold.docs.size,
      items: gold.mentions.length,
      warnings: duplicateMentionWarnings('gold standard', gold.mentions),
    };
  },
  goldDocuments: (gold) => gold.docs,
  withoutDocuments: (gold, documents) => ({
    mentions: gold.mentions.filter((m) => !documents.has(m.doc)),
    docs: withoutIds(gold.docs, documents),
  }),
  parseRun(body) {
    const run = bratDocuments(body, 'run').mentions;
    return { run, warnings: duplicateMentionWarnings('run', run) };
  },
  onlineRun(answers) {
    const mentions: Mention[] = [];
    for (const a of answers) {
      for (const m of (a.value as MentionItem[] | null) ?? [])
        mentions.push({ doc: a.doc, start: m.start, end: m.end, type: m.type ?? UNTYPED, ...(m.ids?.length ? { ids: m.ids } : {}) });
    }
    return mentions;
  },
  score(gold, run, s) {
    // Documents outside the gold are ignored, as for every other task.
    const response = run.filter((m) => gold.docs.has(m.doc));
    const metrics = scoreMentions(gold.mentions, response, { singleClass: s.singleClass === true });
    // A gold with concept ids is also scored as BC5CDR's and NLM-Chem's tools score normalization.
    if (!gold.mentions.some((m) => m.ids?.length)) return { metrics: { ...metrics } };
    const norm = scoreNorm(gold.mentions.map(storedNormAnnotation), response.map(storedNormAnnotation));
    return { metrics: { ...metrics, mention: norm.mention, id: norm.id, span: norm.span, identifier: norm.identifier } };
  },
  // Strict match, every type together: the counts of strict.p / strict.r / strict.f.
  documentCounts: {
    figures: 'strict',
    count: (gold, run, s) =>
      mentionDocumentCounts(
        gold.mentions,
        run.filter((m) => gold.docs.has(m.doc)),
        { singleClass: s.singleClass === true },
      ),
  },
  cli: {
    flags: ['singleClass', 'lenient'],
    runs: 'brat directories, .ann or BIO files, or corpus files (BioC, PubTator)',
    reads: ['brat-dir', 'brat-ann', 'bio', 'bioc-xml', 'bioc-json', 'bioc-jsonl', 'pubtator'],
    score: scoreMentionFiles,
  },
  // BC5CDR's and NLM-Chem's normalization figures (mentions with their concept ids).
  scorers: { NORM: normScoreCli },
};
