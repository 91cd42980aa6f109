// brat standoff for MENTION: the article as `.txt` and its mentions as `.ann` T lines
// (`T1<TAB>Type start end<TAB>text`). Offsets count code points, as our API does (brat
// itself is Python and counts code points too). Import reads the T lines with the scoring
// library's parser, so a gold file and an imported run read alike.
//
// Choices: an untyped mention is written with type `Mention` (brat needs a type) and
// comes back typed so; confidence, rank and section ride on an `AnnotatorNotes` line
// (`#1<TAB>AnnotatorNotes T1<TAB>confidence=0.9 rank=2`), which brat shows and keeps;
// TAB and line breaks in the text column are written as spaces (the offsets decide).

import { parseBratMentions, ScoringInputError } from '../scoring/index.ts';
import { CodePointText } from '../tasks/text.ts';
import type { MentionItem } from '../tasks/types.ts';
import { FormatError, extraFieldsOf, parseExtraFields, typeName, type ExportArticle } from './common.ts';

export interface BratDocument {
  txt: string;
  ann: string;
}

export function exportBrat(text: string, mentions: readonly MentionItem[]): BratDocument {
  const lines: string[] = [];
  let notes = 0;
  mentions.forEach((m, i) => {
    const id = `T${i + 1}`;
    lines.push(`${id}\t${typeName(m, 'brat')} ${m.start} ${m.end}\t${m.text.replace(/[\t\r\n]/g, ' ')}`);
    const extra = extraFieldsOf(m);
    if (extra !== '') lines.push(`#${++notes}\tAnnotatorNotes ${id}\t${extra}`);
  });
  return { txt: text, ann: lines.map((l) => `${l}\n`).join('') };
}

/** One server's mentions of one article; a server without a MENTION answer gets an empty `.ann`. */
export function exportBratAnswer(article: ExportArticle, server: string): BratDocument {
  const answer = article.answers.find((a) => a.server === server);
  return exportBrat(article.text, answer?.result.MENTION ?? []);
}

export function importBrat(txt: string, ann: string, options: { file?: string } = {}): MentionItem[] {
  let spans;
  try {
    spans = parseBratMentions(ann, { file: options.file });
  } catch (error) {
    if (error instanceof ScoringInputError) throw new FormatError('brat', error.message);
    throw error;
  }
  // The parser returns T lines in file order; their ids come from the same lines.
  const lines = ann.split('\n').map((l) => l.replace(/\r$/, ''));
  const ids = lines.filter((l) => l.startsWith('T')).map((l) => l.split('\t', 1)[0]);
  const notes = new Map<string, string>();
  for (const line of lines) {
    const note = /^#\S*\tAnnotatorNotes (\S+)\t(.*)$/.exec(line);
    if (note) notes.set(note[1], note[2]);
  }
  const text = new CodePointText(txt);
  return spans.map((span, i) => {
    if (span.end > text.length) throw new FormatError('brat', `${ids[i]}: span ${span.start}–${span.end} runs past the end of the text (${text.length} code points)`);
    const mention: MentionItem = { start: span.start, end: span.end, text: text.slice(span.start, span.end), type: span.type };
    return Object.assign(mention, parseExtraFields(notes.get(ids[i]) ?? '', 'brat'));
  });
}
