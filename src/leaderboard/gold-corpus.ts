// Gold standards and offline runs sent as a corpus (BioC XML or JSON, PubTator text)
// instead of the family's own upload form: the corpus is read (every document checked:
// its annotations must fit its text), the family's `scoring.corpus` turns the annotations
// into its own upload body, and that body is read, checked and stored like any upload of
// the form, so scoring and unknown-document reports are the same. One unreadable document
// refuses the upload (a gold standard with holes would score every run wrongly).
import { corpusFormatOf, readCorpusFileEach, type CorpusFormat } from '../formats/corpus-file.ts';
import { FormatError } from '../formats/common.ts';
import { familyOf, tasksWith, type TaskName } from '../families/registry.ts';
import type { UploadContext } from '../families/family.ts';
import { ApiError, badRequest } from '../http/api-error.ts';
import type { GoldCorpus } from './gold-repository.ts';

export type CorpusUpload = 'bioc' | 'pubtator';

/** A PubTator file starts with a title line, `PMID|t|…`. */
const PUBTATOR_START = /^\uFEFF?\s*[^|\t\s]+\|t\|/;

/**
 * Whether the body is a corpus and which: `format` (the query) when given; else a text
 * body starting with "<" (BioC XML), BioC JSON lines or "PMID|t|" (PubTator), or a JSON body that is a list,
 * a BioC document (`passages`), a collection (`documents` as a list, where the MENTION
 * upload has an object) or the PubTator3 wrapper. Otherwise the family's own form.
 */
export function corpusUploadOf(body: unknown, format: CorpusUpload | undefined): CorpusUpload | undefined {
  if (format) return format;
  if (typeof body === 'string')
    return ['bioc-xml', 'bioc-jsonl'].includes(corpusFormatOf(body)) ? 'bioc' : PUBTATOR_START.test(body) ? 'pubtator' : undefined;
  if (Array.isArray(body)) return 'bioc';
  if (typeof body !== 'object' || body === null) return undefined;
  const o = body as Record<string, unknown>;
  return Array.isArray(o.passages) || Array.isArray(o.documents) || Array.isArray(o.PubTator3) ? 'bioc' : undefined;
}

/** The family's own upload body for the corpus, with what was left out in warnings. */
export function corpusUpload(
  task: TaskName,
  body: unknown,
  upload: CorpusUpload,
  what: 'gold standard' | 'run',
  context?: UploadContext,
): { body: unknown; warnings: string[]; documents: number; asLoaded: GoldCorpus } {
  const corpus = familyOf(task).scoring.corpus;
  const convert = what === 'run' ? corpus?.run : corpus?.gold;
  if (!corpus || !convert) {
    const able = tasksWith((f) => (what === 'run' ? f.scoring.corpus?.run : f.scoring.corpus?.gold) !== undefined);
    throw badRequest(
      `a ${task} ${what} cannot be read from a BioC or PubTator corpus (tasks that can: ${able.join(', ')}); send ${familyOf(task).scoring.goldForm}`,
    );
  }
  const content = typeof body === 'string' ? body : JSON.stringify(body);
  const file = `the ${what}`;
  const told = corpusFormatOf(content);
  const format: CorpusFormat = upload === 'pubtator' ? 'pubtator' : told === 'pubtator' ? 'bioc-json' : told;
  let read;
  try {
    read = readCorpusFileEach(content, file, format);
  } catch (err) {
    if (err instanceof FormatError)
      throw new ApiError('invalid_corpus', `${err.message}; nothing was stored`, [{ file, document: null, reason: err.message }]);
    throw err;
  }
  if (read.failures.length > 0) {
    const first = read.failures[0];
    throw new ApiError(
      'invalid_corpus',
      `${read.failures.length} document(s) of the ${what} cannot be read (document ${first.document}: ${first.reason}); nothing was stored`,
      read.failures,
    );
  }
  const converted = convert(read.documents, context);
  if (converted.failures && converted.failures.length > 0) {
    const first = converted.failures[0];
    throw new ApiError(
      'invalid_corpus',
      `${converted.failures.length} document(s) of the ${what} hold annotations ${task} cannot read (document ${first.document}: ${first.reason}); nothing was stored`,
      converted.failures.map((f) => ({ file, ...f })),
    );
  }
  if (converted.body === '')
    throw new ApiError(
      'invalid_corpus',
      `the ${what} holds no annotation ${task} can use (${task} takes ${corpus.takes}); nothing was stored`,
      [],
    );
  return { ...converted, documents: read.documents.length, asLoaded: { format, header: read.header, documents: read.documents } };
}
