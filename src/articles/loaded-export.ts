// The organiser's export of the articles as they were loaded — each one's id (organiser id,
// else article id), text and passages, no annotations — in load order, in the corpus formats
// (BioC XML and JSON, PubTator, PubAnnotation): what was loaded can be checked without a
// server that echoes it. The gold's own export is src/leaderboard/gold-export.ts.
import type { CorpusDocument } from '../formats/bioc-corpus.ts';
import { corpusFiles, type CorpusWriteFormat } from '../formats/corpus-writer.ts';
import { writeOr400, type CorpusExport, type LoadedArticles } from '../leaderboard/gold-export.ts';

export async function exportLoadedArticles(
  articles: LoadedArticles,
  challenge: { id: number; slug: string },
  format: CorpusWriteFormat,
  sourcedb: string,
): Promise<CorpusExport> {
  const documents = (await articles.loadedDocuments(challenge.id)).map((a): CorpusDocument => ({
    id: a.id,
    text: a.text,
    sections: a.sections ?? [],
    annotations: [],
    relations: [],
  }));
  const written = writeOr400(`the articles cannot be written as ${format}`, () =>
    corpusFiles(format, documents, { name: `${challenge.slug}.articles`, source: sourcedb }),
  );
  return { ...written, documents: documents.length };
}
