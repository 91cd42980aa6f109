// The shapes the format modules read and write: one article with the answers of its
// servers, and helpers to pick one server's run out of many articles.

import type { AnswerResult } from '../tasks/types.ts';

/** One server's validated answer for an article, named by a label such as `server-3` or a team's run name. */
export interface ExportAnswer {
  server: string;
  result: AnswerResult;
}

/** One article: its id, its text exactly as sent (offsets count its code points), its answers. */
export interface ExportArticle {
  id: string;
  text: string;
  answers: ExportAnswer[];
  /** COREF only: the given proteins in `.a1` form, as sent to the servers. */
  given?: string;
}

/** One document of one server's run: what TSV export and import work on. */
export interface RunDocument {
  id: string;
  result: AnswerResult;
}

/** The documents of `server`'s run, in article order (articles it did not answer are left out). */
export function runOf(articles: readonly ExportArticle[], server: string): RunDocument[] {
  const run: RunDocument[] = [];
  for (const article of articles) {
    const answer = article.answers.find((a) => a.server === server);
    if (answer) run.push({ id: article.id, result: answer.result });
  }
  return run;
}

/** The type written for a mention that has none (brat, PubAnnotation and BIO all need one). */
export const UNTYPED_MENTION = 'Mention';
