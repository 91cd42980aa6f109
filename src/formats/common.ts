// What every format module shares: the article shapes they read and write, the error they
// throw for input they cannot read or write (so callers answer "your file is wrong", not
// "bug"), and the optional mention fields that some formats can only carry as notes.

import type { MentionItem } from '../families/mention/types.ts';

export class FormatError extends Error {
  /** The format the problem is in (`jats`, `bioc`, `brat`, …). */
  readonly format: string;

  constructor(format: string, message: string) {
    super(`${format}: ${message}`);
    this.name = 'FormatError';
    this.format = format;
  }
}

/**
 * The results of one answer, by task: the families' `AnswerResult`. Named here by shape only,
 * so the formats (a floor below the families) need not import the registry; the families
 * read and write their own key.
 */
export type TaskResults = { readonly MENTION?: readonly MentionItem[]; readonly [task: string]: unknown };

/** One server's validated answer for an article, named by a label such as `server-3` or a run name. */
export interface ExportAnswer<R extends object = TaskResults> {
  server: string;
  result: R;
}

/**
 * A passage of an article loaded from a corpus (a BioC passage, PubTator's title or
 * abstract), in code points. `name` is its section name (BioC `section_type` infon, else
 * `type`); `type` is the `type` infon when it differs from the name (BioC from PMC says
 * `type: paragraph`, `section_type: INTRO`), so an export writes both back.
 */
export interface ArticleSection {
  offset: number;
  length: number;
  name?: string;
  type?: string;
  /** The passage's infons as written, all of them (BioC); only when the passage had any. */
  infons?: Record<string, string>;
}

/**
 * One article: its id, its text exactly as sent (offsets count its code points), its
 * answers; `sections` when it came from a corpus (exports write its passages so).
 */
export interface ExportArticle<R extends object = TaskResults> {
  id: string;
  text: string;
  answers: ExportAnswer<R>[];
  sections?: readonly ArticleSection[];
}

/** One document of one server's run: what TSV export and import work on. */
export interface RunDocument<R extends object = TaskResults> {
  id: string;
  result: R;
}

/** The documents of `server`'s run, in article order (articles it did not answer are left out). */
export function runOf<R extends object>(articles: readonly ExportArticle<R>[], server: string): RunDocument<R>[] {
  const run: RunDocument<R>[] = [];
  for (const article of articles) {
    const answer = article.answers.find((a) => a.server === server);
    if (answer) run.push({ id: article.id, result: answer.result });
  }
  return run;
}

/**
 * The characters Python's str.splitlines breaks lines at (LF, CR, VT, FF, U+001C–U+001E,
 * NEL, U+2028, U+2029): brat and other Python readers split files there, so no exported
 * line may hold one inside a field.
 */
export const LINE_BREAK = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** The type written for a mention that has none (brat, PubAnnotation and BIO all need one). */
export const UNTYPED_MENTION = 'Mention';

// The optional fields of a mention (confidence, rank, section) as `key=value` words, for
// formats that have a free-text slot but no column for them (brat notes).

type Extra = Pick<MentionItem, 'confidence' | 'rank' | 'section'>;

export function extraFieldsOf(m: MentionItem): string {
  const words: string[] = [];
  if (m.confidence !== undefined) words.push(`confidence=${m.confidence}`);
  if (m.rank !== undefined) words.push(`rank=${m.rank}`);
  // Section names are single words in practice; encodeURIComponent keeps any other one intact.
  if (m.section !== undefined) words.push(`section=${encodeURIComponent(m.section)}`);
  return words.join(' ');
}

export function parseExtraFields(note: string, format: string): Extra {
  const extra: Extra = {};
  for (const word of note.trim().split(/\s+/)) {
    const equals = word.indexOf('=');
    if (equals < 0) continue;
    const key = word.slice(0, equals);
    const value = word.slice(equals + 1);
    if (key === 'confidence' || key === 'rank') {
      const number = Number(value);
      if (value === '' || !Number.isFinite(number)) throw new FormatError(format, `${key} "${value}" is not a number`);
      extra[key] = number;
    } else if (key === 'section') {
      try {
        extra.section = decodeURIComponent(value);
      } catch {
        throw new FormatError(format, `section "${value}" is not percent-encoded text`);
      }
    }
    // Other notes are a curator's free text: nothing to read.
  }
  return extra;
}

/** The type a format writes: the mention's own, or UNTYPED_MENTION; it must be one word. */
export function typeName(m: MentionItem, format: string): string {
  const type = m.type ?? UNTYPED_MENTION;
  if (!/^\S+$/.test(type)) throw new FormatError(format, `mention type "${type}" cannot be written: it must be one word without spaces`);
  return type;
}
