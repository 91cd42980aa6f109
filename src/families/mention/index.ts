// MENTION — gene/protein mentions: spans of the text (code-point offsets) with an
// optional type. Answer key `mentions` = [{offset, mention, type?, section?, confidence?, rank?}].

import { exportBioDocuments } from '../../formats/bio.ts';
import { mentionCorpus } from './corpus.ts';
import { writePubTator } from '../../formats/pubtator.ts';
import { UNTYPED_MENTION } from '../../formats/common.ts';
import { exportBrat } from '../../formats/brat.ts';
import { exportPubAnnotation } from '../../formats/pubannotation.ts';
import { biocExports } from '../common/bioc.ts';
import { double } from '../common/wire.ts';
import { defineFamily } from '../family.ts';
import { mentionBioc } from './bioc.ts';
import { idColumn } from './pubtator.ts';
import { mentionsOfVote, voteMentions } from './consensus.ts';
import { mentionScoring } from './scoring.ts';
import type { MentionItem } from './types.ts';
import { validateMention } from './validate.ts';
import { loadConceptIdLists, type ConceptIdLists } from './id-lists.ts';
import { FAMILY_SETTINGS } from '../../tasks/names.ts';

const TASK = 'MENTION';

export const mention = defineFamily({
  name: TASK,
  answerKey: 'mentions',
  title: 'Mentions: spans of gene and protein names, offsets in code points',
  validate: validateMention,
  counting: { count: 'items' },
  wire: {
    toWire: (mentions: MentionItem[]) =>
      mentions.map((m) => ({
        offset: m.start,
        mention: m.text,
        type: m.type,
        ids: m.ids,
        confidence: double(m.confidence),
        section: m.section,
      })),
    help: 'mentions [{offset, mention, type?, ids?, confidence?, section?}] (offsets in code points; ids "NS:accession")',
  },
  scoring: { ...mentionScoring, corpus: mentionCorpus },
  consensus: { vote: voteMentions, asResult: mentionsOfVote },
  exports: {
    ...biocExports(TASK, mentionBioc),
    brat: (docs) => ({
      files: docs.flatMap((d) => {
        const doc = exportBrat(d.text, d.result);
        return [
          { name: `${d.id}.txt`, content: doc.txt },
          { name: `${d.id}.ann`, content: doc.ann },
        ];
      }),
    }),
    pubannotation: (docs, o) => ({
      files: docs.map((d) => ({
        name: `${d.id}.json`,
        content: `${JSON.stringify(exportPubAnnotation(d.text, d.result, { sourcedb: o.sourcedb, sourceid: d.id }), null, 2)}\n`,
      })),
    }),
    bio: (docs, o) => {
      // One CoNLL file, each document headed by a -DOCSTART- line, in load order.
      const { bio, leftOut } = exportBioDocuments(docs.map((d) => ({ text: d.text, mentions: d.result })));
      return { files: [{ name: `${o.run}.${TASK}.bio`, content: bio }], mentionsLeftOut: leftOut };
    },
    // One PubTator file, documents in load order; an untyped mention is written as
    // "Mention"; the id column as BC5CDR writes it (idColumn).
    pubtator: (docs, o) => ({
      files: [
        {
          name: `${o.run}.${TASK}.pubtator`,
          content: writePubTator(
            docs.map((d) => ({
              id: d.id,
              text: d.text,
              sections: d.sections,
              annotations: d.result.map((m) => ({ start: m.start, end: m.end, type: m.type ?? UNTYPED_MENTION, identifier: idColumn(m) })),
            })),
          ),
        },
      ],
    }),
  },
  bioc: mentionBioc,
  web: {
    answer: { kind: 'spans', heading: 'Text and mentions', spans: (mentions) => mentions },
    consensus: (vote) => ({
      heading: 'Mentions',
      items: vote.items.map((m) => ({ label: m.text, detail: `[${m.start}, ${m.end})`, share: m.share, servers: m.servers.length })),
    }),
    // Strict, left and right match, each P/R/F and its counts; the same per entity type below.
    leaderboard: {
      groups: {
        groups: [
          ['strict', 'Strict match'],
          ['left', 'Left match'],
          ['right', 'Right match'],
          // When the gold carries concept ids (src/scoring/README.md, NORM); hidden otherwise.
          ['mention', 'BC5CDR mentions'],
          ['id', 'BC5CDR ids (per document)'],
          ['span.strict', 'NLM-Chem span strict'],
          ['span.approx', 'NLM-Chem span approx'],
          ['identifier.strict', 'NLM-Chem identifier strict'],
        ],
        figures: [
          ['p', 'P'],
          ['r', 'R'],
          ['f', 'F'],
          ['tp', 'TP'],
          ['fp', 'FP'],
          ['fn', 'FN'],
        ],
        breakdown: { key: 'perType', label: 'entity type' },
      },
      pr: { p: 'strict.p', r: 'strict.r' },
    },
    preselected: ['server'],
  },
  settings: FAMILY_SETTINGS.MENTION,
  lookup: {
    setting: 'conceptIdLists',
    load: (paths: string): ConceptIdLists => loadConceptIdLists(paths),
    release: (lists: ConceptIdLists) => lists.release,
    without: 'mention ids are checked for their form and the namespaces of the challenge only',
  },
});
