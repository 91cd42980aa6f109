// The families a leaderboard scores page by page (src/families/common/streamed.ts): those
// whose figures are sums of per-document counts. The others (ranked lists' AUC over whole
// runs, COREF's links, TOPIC's per-label figures…) are scored whole: their challenges are a
// few hundred documents, not a million.
import type { StreamedScoring } from '../families/common/streamed.ts';
import { mentionStreamed } from '../families/mention/streamed.ts';
import type { TaskName } from '../families/registry.ts';

const STREAMED: Partial<Record<TaskName, StreamedScoring<unknown, unknown, unknown>>> = {
  MENTION: mentionStreamed,
};

/** The task's streamed form, when its family has one. */
export const streamedScoringOf = (task: TaskName): StreamedScoring<unknown, unknown, unknown> | undefined => STREAMED[task];
