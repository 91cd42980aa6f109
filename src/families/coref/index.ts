// COREF — protein coreference (BioNLP-ST 2011): expressions and the links between them,
// as standoff lines. Answer key `coref`; servers registered for it are also sent the
// given proteins (`given`, the `.a1` lines).

import { exportA2 } from '../../formats/a1a2.ts';
import { biocExports } from '../common/bioc.ts';
import { defineFamily } from '../family.ts';
import { corefBioc } from './bioc.ts';
import { corefScoring } from './scoring.ts';
import type { CorefResult } from './types.ts';
import { validateCoref } from './validate.ts';

const TASK = 'COREF';

export const coref = defineFamily({
  name: TASK,
  answerKey: 'coref',
  title: 'Protein coreference: expressions and links as BioNLP standoff',
  given: { description: 'the COREF given proteins' },
  validate: validateCoref,
  counting: { count: 'items', in: ['expressions', 'links'] },
  wire: {
    // The protocol's coref string has no final newline (lines joined by "\n").
    toWire: (result: CorefResult) => exportA2(result).replace(/\n$/, ''),
    help: 'coref (standoff text)',
  },
  scoring: corefScoring,
  exports: {
    ...biocExports(TASK, corefBioc),
    a2: (docs) => ({ files: docs.map((d) => ({ name: `${d.id}.a2`, content: exportA2(d.result) })) }),
  },
  bioc: corefBioc,
  web: {
    leaderboard: {
      // As the official scorer reports it: mention detection first, then the links (protein
      // mode, the task's primary figure, as in the paper's Table 3), surface mode, and how
      // many response links were not scored (the JSON download lists them with the reason).
      columns: [
        ['mentions.protein.p', 'Mention P'],
        ['mentions.protein.r', 'Mention R'],
        ['mentions.protein.f', 'Mention F'],
        ['protein.response', 'Resp'],
        ['protein.tp', 'C'],
        ['protein.p', 'P'],
        ['protein.r', 'R'],
        ['protein.f', 'F'],
        ['surface.p', 'Surface P'],
        ['surface.r', 'Surface R'],
        ['surface.f', 'Surface F'],
        ['droppedLinks', 'Links not scored'],
      ],
      pr: { p: 'protein.p', r: 'protein.r' },
    },
  },
});
