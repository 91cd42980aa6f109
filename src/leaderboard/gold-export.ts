// The organiser's own export of a task's gold standard (the articles as loaded are
// src/articles/loaded-export.ts), in the corpus formats (BioC XML and JSON, PubTator, PubAnnotation), as a server's answers export.
// A gold loaded from a corpus is written back from the corpus as it was read (migration 023:
// ids, infons, fragments, relations, the collection's header, the corpus's order); a gold
// loaded in the brat form (MENTION's own: a brat `.ann` per document) is written from its
// mentions on the articles' texts, in load order. Other gold loaded in a family's own form
// (TSV, JSON) has no text to stand on: refused, saying how to get an export.
import type { FastifyReply } from 'fastify';
import type { ArticleSection } from '../formats/common.ts';
import { tarGz } from '../formats/tar-gz.ts';
import type { CorpusAnnotation, CorpusDocument } from '../formats/bioc-corpus.ts';
import { corpusFiles, type CorpusWriteFormat, type LeftOut } from '../formats/corpus-writer.ts';
import { importBrat } from '../formats/brat.ts';
import { FormatError } from '../formats/common.ts';
import type { TaskName } from '../families/registry.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import type { GoldRepository } from './gold-repository.ts';

/** The articles as loaded (ArticleRepository.loadedDocuments, by shape: articles/ builds on the leaderboard). */
export interface LoadedArticles {
  loadedDocuments(
    challengeId: number,
    organiserIds?: readonly string[],
  ): Promise<Array<{ id: string; text: string; sections: ArticleSection[] | null }>>;
}

export interface CorpusExport {
  files: Array<{ name: string; content: string }>;
  /** What the format could not hold, or gold documents without an article to write them on. */
  leftOut: LeftOut[];
  documents: number;
}

type BratGold = Record<string, { ann: string }>;

/** The documents of a gold stored in the brat form (`{"documents": {"<id>": {"ann": …}}}`), else undefined. */
function bratGold(body: string): BratGold | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined; // a TSV gold
  }
  const documents = (parsed as { documents?: unknown } | null)?.documents;
  if (typeof documents !== 'object' || documents === null || Array.isArray(documents)) return undefined;
  const values = Object.values(documents as Record<string, unknown>);
  return values.every((d) => typeof (d as { ann?: unknown } | null)?.ann === 'string') ? (documents as BratGold) : undefined;
}

/** A gold in the brat form: each document's mentions on its article's text, in load order. */
async function bratGoldDocuments(
  articles: LoadedArticles,
  challengeId: number,
  gold: BratGold,
): Promise<{ documents: CorpusDocument[]; leftOut: LeftOut[] }> {
  const loaded = await articles.loadedDocuments(challengeId, Object.keys(gold));
  const found = new Set(loaded.map((a) => a.id));
  const leftOut = Object.keys(gold)
    .filter((id) => !found.has(id))
    .map((id) => ({
      document: id,
      what: 'the whole document: no article of the challenge has this id, so there is no text to write it on',
    }));
  const documents = loaded.map((a): CorpusDocument => {
    const annotations = importBrat(a.text, gold[a.id].ann, { file: `gold document ${a.id}` }).map((m, i): CorpusAnnotation => ({
      id: `T${i + 1}`,
      start: m.start,
      end: m.end,
      text: m.text,
      ...(m.type !== undefined ? { type: m.type } : {}),
      infons: { ...(m.type !== undefined ? { type: m.type } : {}), ...(m.ids ? { identifier: m.ids.join(',') } : {}) },
    }));
    return { id: a.id, text: a.text, sections: a.sections ?? [], annotations, relations: [] };
  });
  return { documents, leftOut };
}

/** The task's gold standard in the format; 404 when none is loaded. */
export async function exportGold(
  deps: { gold: GoldRepository; articles: LoadedArticles },
  challenge: { id: number; slug: string },
  task: TaskName,
  format: CorpusWriteFormat,
  sourcedb: string,
): Promise<CorpusExport> {
  const name = `${challenge.slug}.${task}.gold`;
  const asLoaded = await deps.gold.goldCorpus(challenge.id, task);
  if (asLoaded) {
    const written = writeOr400(`the gold cannot be written as ${format}`, () =>
      corpusFiles(format, asLoaded.documents, { header: asLoaded.header, name, source: sourcedb }),
    );
    return { ...written, documents: asLoaded.documents.length };
  }
  const stored = await deps.gold.gold(challenge.id, task);
  if (!stored)
    throw notFound(
      `a ${task} gold standard in challenge "${challenge.slug}" (load one with PUT /api/challenges/${challenge.slug}/gold/${task})`,
    );
  const brat = bratGold(stored.body);
  if (!brat)
    throw badRequest(
      `the ${task} gold standard was loaded in its own form, which holds no text to write a corpus on; load it from a BioC or PubTator corpus to export it`,
    );
  const { documents, leftOut } = await bratGoldDocuments(deps.articles, challenge.id, brat);
  const written = writeOr400(`the gold cannot be written as ${format}`, () => corpusFiles(format, documents, { name, source: sourcedb }));
  return { files: written.files, leftOut: [...leftOut, ...written.leftOut], documents: documents.length };
}

/** Runs a writer; a document the format cannot hold is a 400 that says what (`what`: "the answers cannot be written as bio") and why. */
export function writeOr400<T>(what: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof FormatError) throw new ApiError('cannot_export', `${what}: ${err.message}`);
    throw err;
  }
}

/** Answers with the files as one gzip-compressed tar, an attachment named `name` (made safe for the header). */
export async function sendTarGz(reply: FastifyReply, name: string, files: CorpusExport['files']): Promise<FastifyReply> {
  return reply
    .type('application/gzip')
    .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
    .send(await tarGz(files));
}

/** Answers an export: the files as JSON, or with `archive` as one tar.gz. */
export async function sendCorpusExport(
  reply: FastifyReply,
  exported: CorpusExport,
  answer: { challenge: string; format: string; task?: string },
  archive: string | undefined,
): Promise<FastifyReply | ({ challenge: string; format: string; task?: string } & CorpusExport)> {
  if (archive === 'tar.gz')
    return await sendTarGz(reply, `${answer.challenge}.${answer.task ?? 'articles'}.${answer.format}.tar.gz`, exported.files);
  return { ...answer, documents: exported.documents, files: exported.files, leftOut: exported.leftOut };
}
