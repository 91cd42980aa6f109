// MENTION scored page by page (src/families/common/streamed.ts): the gold stored one
// `{"ann": …}` per document, the strict / left / right tallies and the NORM tallies added
// per page. Every key both scorers match on holds its document, so a page's counts never
// depend on another page. Whether the NORM figures are reported depends on the whole gold
// (any concept id in it), so the tally remembers whether a page had one.
import { emptyMentionTally, mentionScoreOf, tallyMentions, type Mention, type MentionTally } from '../../scoring/index.ts';
import { addNormTally, emptyNormTally, normScoreOf, storedNormAnnotation, tallyNorm, type NormTally } from '../../scoring/concept-norm.ts';
import { jsonDocuments } from '../common/upload.ts';
import type { GoldPart, StreamedScoring } from '../common/streamed.ts';
import { mentionScoring, type MentionGold } from './scoring.ts';

export interface MentionStreamTally {
  mentions: MentionTally;
  norm: NormTally;
  goldHasIds: boolean;
}

export const mentionStreamed: StreamedScoring<MentionGold, Mention[], MentionStreamTally> = {
  goldParts(body: unknown): GoldPart[] {
    return [...jsonDocuments('MENTION', body, 'gold standard', ['ann'])].map(([doc, d]) => ({ doc, body: JSON.stringify({ ann: d.ann }) }));
  },
  goldOf(parts) {
    const documents = Object.fromEntries(parts.map((p) => [p.doc, JSON.parse(p.body) as unknown]));
    return mentionScoring.parseGold({ documents }).gold;
  },
  byDocument(run) {
    const byDoc = new Map<string, Mention[]>();
    for (const m of run) (byDoc.get(m.doc) ?? byDoc.set(m.doc, []).get(m.doc)!).push(m);
    return byDoc;
  },
  join: (parts) => parts.flat(),
  empty: () => ({ mentions: emptyMentionTally(), norm: emptyNormTally(), goldHasIds: false }),
  add(into, gold, run, s) {
    // Documents outside the gold are ignored, as in `score`.
    const response = run.filter((m) => gold.docs.has(m.doc));
    tallyMentions(gold.mentions, response, { singleClass: s.singleClass === true }, into.mentions);
    addNormTally(into.norm, tallyNorm(gold.mentions.map(storedNormAnnotation), response.map(storedNormAnnotation)));
    if (!into.goldHasIds) into.goldHasIds = gold.mentions.some((m) => m.ids?.length);
  },
  finish(tally) {
    const metrics = mentionScoreOf(tally.mentions);
    if (!tally.goldHasIds) return { metrics: { ...metrics } };
    const norm = normScoreOf(tally.norm);
    return { metrics: { ...metrics, mention: norm.mention, id: norm.id, span: norm.span, identifier: norm.identifier } };
  },
};
