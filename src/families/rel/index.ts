// REL — typed relations between given entities (DrugProt, BioCreative VII track 1).
// Servers registered for REL are also sent the article's entities (`given`: DrugProt
// entity lines or `T1<TAB>CHEMICAL 0 7<TAB>text` standoff lines) and answer
// `relations` = [{type, arg1, arg2, confidence?, rank?}], the arguments given entity ids.
// Scored as the DrugProt evaluation library scores (micro P/R/F over all types, per type);
// gold and runs in the DrugProt TSV forms or from BioC relations.

import { double } from '../common/wire.ts';
import { biocExports } from '../common/bioc.ts';
import { defineFamily, type WebItem } from '../family.ts';
import { relConsensus } from './consensus.ts';
import { relCorpus } from './corpus.ts';
import { relBioc, relBrat, relPubAnnotation } from './exports.ts';
import { relScoring } from './scoring.ts';
import type { RelItem, RelResult } from './types.ts';
import { REL_KEY, validateRel } from './validate.ts';

const TASK = 'REL';

/** The relation's two mentions, to show highlighted in the text, named by role and type. */
function relationMarks(r: Pick<RelItem, 'arg1' | 'arg2'>, entities: RelResult['entities']): WebItem['marks'] {
  return (['arg1', 'arg2'] as const).flatMap((arg) => {
    const e = entities.find((x) => x.id === r[arg]);
    return e ? [{ start: e.start, end: e.end, label: `${arg === 'arg1' ? 'Arg1' : 'Arg2'} ${e.type}` }] : [];
  });
}

/** A relation for people: `INHIBITOR: aspirin (CHEMICAL) → COX-2 (GENE)`. */
function relationLabel(r: Pick<RelItem, 'arg1' | 'arg2'>, entities: RelResult['entities']): string {
  const name = (id: string): string => {
    const e = entities.find((x) => x.id === id);
    return e ? `${e.text} (${e.type} ${id})` : id;
  };
  return `${name(r.arg1)} → ${name(r.arg2)}`;
}

export const rel = defineFamily({
  name: TASK,
  answerKey: REL_KEY,
  title: 'Relations: typed relations between the given entities (DrugProt)',
  given: { description: 'the REL given entities' },
  validate: validateRel,
  counting: { count: 'items', in: ['relations'] },
  wire: {
    toWire: (result: RelResult) =>
      result.relations.map((r) => ({
        type: r.type,
        arg1: r.arg1,
        arg2: r.arg2,
        ...(r.rank !== undefined ? { rank: r.rank } : {}),
        ...(r.confidence !== undefined ? { confidence: double(r.confidence) } : {}),
      })),
    help: 'relations [{type, arg1, arg2, confidence?, rank?}]',
  },
  scoring: { ...relScoring, corpus: relCorpus },
  consensus: relConsensus,
  exports: { ...biocExports(TASK, relBioc), brat: relBrat, pubannotation: relPubAnnotation },
  bioc: relBioc,
  web: {
    answer: {
      kind: 'list',
      heading: 'REL: relations',
      items: (result) =>
        result.relations.map((r) => ({
          label: r.type,
          marks: relationMarks(r, result.entities),
          detail: relationLabel(r, result.entities),
          confidence: r.confidence,
        })),
    },
    consensus: (vote) => ({
      heading: TASK,
      items: vote.items.map((r) => ({
        label: r.type,
        marks: relationMarks(r, vote.entities),
        detail: relationLabel(r, vote.entities),
        share: r.share,
        servers: r.servers.length,
      })),
    }),
    leaderboard: {
      // As the official library prints them: micro-averaged P, R, F over every type.
      columns: [
        ['micro.p', 'P'],
        ['micro.r', 'R'],
        ['micro.f', 'F'],
        ['micro.tp', 'TP'],
        ['micro.fp', 'FP'],
        ['micro.fn', 'FN'],
      ],
      pr: { p: 'micro.p', r: 'micro.r' },
    },
  },
});
