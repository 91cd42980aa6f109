// CREL — relations between the concepts of a document (BC5CDR's chemical-induced disease,
// BioCreative VIII BioRED's eight types with novelty). Servers answer `concept_relations`
// = [{type, concept1, concept2, novelty?, confidence?, rank?}], the concepts named by ids
// the same answer's `mentions` carry. Scored with BioRED's four settings (the leaderboard,
// `metaserver score CREL`) and BC5CDR's eval_relation.sh (`metaserver score CID`); gold and
// runs are PubTator relation lines or come from BioC/PubTator corpora.

import { double } from '../common/wire.ts';
import { biocExports } from '../common/bioc.ts';
import { conceptIdLink } from '../../tasks/concept-ids.ts';
import { defineFamily, type WebItem } from '../family.ts';
import { crelConsensus } from './consensus.ts';
import { crelCorpus } from './corpus.ts';
import { crelBioc, crelPubAnnotation, crelPubTator } from './exports.ts';
import { crelScoring } from './scoring.ts';
import type { CrelItem, CrelMention, CrelResult } from './types.ts';
import { CREL_KEY, MENTIONS_KEY, validateCrel } from './validate.ts';

const TASK = 'CREL';

/** Every mention of the relation's two concepts, highlighted and named by concept. */
function relationMarks(r: CrelItem, mentions: readonly CrelMention[]): WebItem['marks'] {
  return mentions.flatMap((m) =>
    (['concept1', 'concept2'] as const).flatMap((c) =>
      m.ids.includes(r[c]) ? [{ start: m.start, end: m.end, label: `${r[c]}${m.type ? ` ${m.type}` : ''}` }] : [],
    ),
  );
}

/** The two concepts, linked to their databases. */
const conceptLinks = (r: CrelItem): WebItem['links'] => [r.concept1, r.concept2].map((id) => ({ label: id, href: conceptIdLink(id).href }));

const item = (r: CrelItem, mentions: readonly CrelMention[]): WebItem => ({
  label: r.type,
  marks: relationMarks(r, mentions),
  links: conceptLinks(r),
  ...(r.novelty ? { detail: r.novelty === 'Novel' ? 'novel' : 'not novel' } : {}),
});

export const crel = defineFamily({
  name: TASK,
  answerKey: CREL_KEY,
  title: 'Concept relations: relations between the concepts of a document (BC5CDR CID, BioRED)',
  validate: validateCrel,
  reads: [MENTIONS_KEY],
  counting: { count: 'items', in: ['relations'] },
  wire: {
    toWire: (result: CrelResult) =>
      result.relations.map((r) => ({
        type: r.type,
        concept1: r.concept1,
        concept2: r.concept2,
        ...(r.novelty !== undefined ? { novelty: r.novelty } : {}),
        ...(r.rank !== undefined ? { rank: r.rank } : {}),
        ...(r.confidence !== undefined ? { confidence: double(r.confidence) } : {}),
      })),
    help: 'concept_relations [{type, concept1, concept2, novelty?, confidence?, rank?}] (concepts: ids the mentions carry)',
  },
  scoring: { ...crelScoring, corpus: crelCorpus },
  consensus: crelConsensus,
  exports: { ...biocExports(TASK, crelBioc), pubannotation: crelPubAnnotation, pubtator: crelPubTator },
  bioc: crelBioc,
  web: {
    answer: {
      kind: 'list',
      heading: 'CREL: relations between concepts',
      items: (result) => result.relations.map((r) => ({ ...item(r, result.mentions), confidence: r.confidence })),
    },
    consensus: (vote) => ({
      heading: TASK,
      items: vote.items.map((r) => ({ ...item(r, vote.mentions), share: r.share, servers: r.servers.length })),
    }),
    leaderboard: {
      // BioRED's four settings, P, R, F each; the counts of the comprehensive one.
      columns: [
        ['pair.p', 'Pair P'],
        ['pair.r', 'Pair R'],
        ['pair.f', 'Pair F'],
        ['pairType.f', 'Pair+type F'],
        ['pairNovelty.f', 'Pair+novelty F'],
        ['all.p', 'All P'],
        ['all.r', 'All R'],
        ['all.f', 'All F'],
        ['all.tp', 'TP'],
        ['all.fp', 'FP'],
        ['all.fn', 'FN'],
      ],
      pr: { p: 'all.p', r: 'all.r' },
    },
  },
});
