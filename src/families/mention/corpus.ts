// MENTION gold and runs from a corpus: every annotation with a location is a mention of
// its `type` (BioC infon, PubTator column), written as the brat `.ann` text the MENTION
// upload holds, one per document. Every document of the corpus is in it, also one without
// annotations (its mentions are then all false positives). Annotations without a
// location (about the whole document) are not mentions: counted in a warning. A type is
// one brat word: white space in it becomes "_", named in a warning; an untyped
// annotation is scored under "untyped", as an untyped online mention is.
import type { CorpusDocument } from '../../formats/bioc-corpus.ts';
import type { FamilyCorpus } from '../family.ts';
import { UNTYPED } from './types.ts';

function mentionDocuments(documents: readonly CorpusDocument[]): { body: unknown; warnings: string[] } {
  const warnings: string[] = [];
  let whole = 0;
  let relations = 0;
  const renamed = new Map<string, string>();
  const out: Record<string, { ann: string }> = {};
  for (const doc of documents) {
    const lines: string[] = [];
    relations += doc.relations.length;
    for (const a of doc.annotations) {
      if (a.start === undefined || a.end === undefined) {
        whole++;
        continue;
      }
      let type = a.type === undefined || a.type.trim() === '' ? UNTYPED : a.type;
      if (/\s/.test(type)) {
        const word = type.trim().replace(/\s+/g, '_');
        renamed.set(type, word);
        type = word;
      }
      lines.push(`T${lines.length + 1}\t${type} ${a.start} ${a.end}\t${a.text.replace(/[\t\r\n\v\f\u2028\u2029\x85]/g, ' ')}`);
    }
    out[doc.id] = { ann: lines.join('\n') };
  }
  if (whole > 0) warnings.push(`${whole} annotation(s) without a location (about the whole document) are not mentions and were left out`);
  if (relations > 0) warnings.push(`${relations} relation(s) were left out: MENTION scores mentions only`);
  for (const [from, to] of renamed) warnings.push(`type "${from}" holds white space; scored as "${to}"`);
  return { body: { documents: out }, warnings };
}

export const mentionCorpus: FamilyCorpus = {
  takes: 'every annotation with a location, typed by its type infon (BioC) or type column (PubTator)',
  gold: mentionDocuments,
  run: mentionDocuments,
};
