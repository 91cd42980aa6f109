// COREF scoring as the BioNLP-ST 2011 official scorer (CRScorer) computes it: gold
// uploads as JSON holding each document's `.a1` (given proteins) and `.a2`, offline runs
// the `.a2` alone; online answers as expressions and links; scoreCoref with mention
// detection first, protein and surface links, and the links not scored beside them.

import { join } from 'node:path';
import { runName, UsageError } from '../../scoring/score-files.ts';
import {
  ScoringInputError,
  compareIds,
  parseA1,
  parseA2,
  scoreCoref,
  type CorefAnnotation,
  type CorefDocumentInput,
  type Expression,
  type Protein,
} from '../../scoring/index.ts';
import { jsonDocuments } from '../common/upload.ts';
import type { FamilyScoring } from '../family.ts';
import type { CorefResult } from './types.ts';
import { withoutKeys } from '../common/documents.ts';

const TASK = 'COREF';

export interface CorefGoldDocument {
  proteins: Map<string, Protein>;
  gold: CorefAnnotation;
}

function corefDocuments(
  body: unknown,
  what: string,
  needA1: boolean,
): Map<string, { proteins?: Map<string, Protein>; annotation: CorefAnnotation }> {
  const docs = new Map<string, { proteins?: Map<string, Protein>; annotation: CorefAnnotation }>();
  for (const [id, doc] of jsonDocuments(TASK, body, what, needA1 ? ['a1', 'a2'] : ['a2'])) {
    docs.set(id, {
      proteins: needA1 ? parseA1(doc.a1, { file: `documents["${id}"].a1` }) : undefined,
      annotation: parseA2(doc.a2, { file: `documents["${id}"].a2` }),
    });
  }
  return docs;
}

export const corefScoring: FamilyScoring<Map<string, CorefGoldDocument>, Map<string, CorefAnnotation>> = {
  mainFigure: 'protein.f',
  options: [],
  upload: 'json',
  goldForm: '{"documents": {"<id>": {"a1": "<given proteins>", "a2": "<coreference>"}}} (runs: "a2" only)',
  parseGold(body) {
    const docs = new Map<string, CorefGoldDocument>();
    let links = 0;
    for (const [id, doc] of corefDocuments(body, 'gold standard', true)) {
      docs.set(id, { proteins: doc.proteins!, gold: doc.annotation });
      links += doc.annotation.links.length;
    }
    return { gold: docs, documents: docs.size, items: links, warnings: [] };
  },
  goldDocuments: (gold) => gold.keys(),
  withoutDocuments: withoutKeys,
  parseRun(body) {
    const docs = new Map<string, CorefAnnotation>();
    for (const [id, doc] of corefDocuments(body, 'run', false)) docs.set(id, doc.annotation);
    return { run: docs, warnings: [] };
  },
  onlineRun(answers) {
    const docs = new Map<string, CorefAnnotation>();
    for (const a of answers) {
      const result = (a.value as CorefResult | null) ?? { expressions: [], links: [] };
      const expressions = new Map<string, Expression>();
      for (const e of result.expressions) {
        const expression: Expression = { id: e.id, start: e.start, end: e.end, text: e.text };
        if (e.min) expression.min = { start: e.min.start, end: e.min.end };
        expressions.set(e.id, expression);
      }
      // `line` only places errors; the link's position stands in for it.
      const links = result.links.map((l, i) => ({
        id: l.id,
        anaphor: l.anaphor,
        antecedent: l.antecedent,
        antecedents: [l.antecedent],
        line: i + 1,
      }));
      docs.set(a.doc, { expressions, links });
    }
    return docs;
  },
  score(gold, run) {
    const inputs: CorefDocumentInput[] = [...gold.keys()].sort(compareIds).map((doc) => {
      const g = gold.get(doc)!;
      // A document the run left out is an empty response: its gold links are all missed.
      const response = run.get(doc) ?? { expressions: new Map(), links: [] };
      return { doc, proteins: g.proteins, gold: g.gold, response, goldFile: `gold ${doc}`, responseFile: `run ${doc}` };
    });
    const { droppedLinks, ...metrics } = scoreCoref(inputs);
    return { metrics, droppedLinks };
  },
  cli: {
    flags: ['given'],
    runs: 'directories of .a2 files',
    reads: ['bionlp-st'],
    check(o) {
      if (!o.given) throw new UsageError('COREF needs --given DIR (the .a1 files with the given proteins)');
    },
    async score(runs, o, files) {
      const goldDir = o.gold as string;
      const givenDir = o.given as string;
      const goldNames = (await files.listDir(goldDir)) ?? [];
      const givenNames = new Set((await files.listDir(givenDir)) ?? []);
      const docs = goldNames.filter((n) => n.endsWith('.a2')).map((n) => n.slice(0, -3));
      if (docs.length === 0)
        throw new ScoringInputError('holds no .a2 files', { file: goldDir, hint: '--gold must be a directory of <doc>.a2 files' });
      const prepared = [];
      for (const doc of docs) {
        const a1Dir = givenNames.has(`${doc}.a1`) ? givenDir : goldNames.includes(`${doc}.a1`) ? goldDir : undefined;
        if (!a1Dir)
          throw new ScoringInputError(`no ${doc}.a1 with the given proteins`, {
            file: givenDir,
            hint: '--given must hold <doc>.a1 for every gold document',
          });
        const a1File = join(a1Dir, `${doc}.a1`);
        const goldFile = join(goldDir, `${doc}.a2`);
        prepared.push({
          doc,
          goldFile,
          proteins: parseA1(await files.read(a1File), { file: a1File }),
          gold: parseA2(await files.read(goldFile), { file: goldFile }),
        });
      }
      const scored = [];
      for (const dir of runs) {
        const names = new Set((await files.listDir(dir)) ?? []);
        const inputs: CorefDocumentInput[] = [];
        for (const p of prepared) {
          const responseFile = join(dir, `${p.doc}.a2`);
          // A document the run left out is an empty response: its gold links and expressions
          // are all missed (the official scorer does not score such a document).
          const response = names.has(`${p.doc}.a2`)
            ? parseA2(await files.read(responseFile), { file: responseFile })
            : { expressions: new Map(), links: [] };
          inputs.push({ ...p, response, responseFile });
        }
        const { droppedLinks, ...metrics } = scoreCoref(inputs);
        const run = runName(dir);
        // As the official scorer prints "Invalid response link … removed", on stderr here so
        // that stdout stays one report in the chosen format.
        files.note(
          run,
          droppedLinks.map((d) => d.message),
        );
        scored.push({ run, metrics, droppedLinks });
      }
      return scored;
    },
  },
};
