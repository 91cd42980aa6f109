// REL scoring as the DrugProt evaluation library scores it (src/scoring/rel.ts): gold
// uploads as JSON holding the DrugProt entities and relations files (and, optionally, the
// pmids list), offline runs the relations file; online answers as relations on the
// article's given entities, the organiser id standing for the pmid.

import { runName, UsageError } from '../../scoring/score-files.ts';
import {
  DRUGPROT_CHEMICAL,
  DRUGPROT_GENE,
  pairingTypes,
  DRUGPROT_RELATION_TYPES,
  ScoringInputError,
  emptyRelNotes,
  parsePmids,
  parseRelEntities,
  parseRelRelations,
  scoreRelations,
  type RelEntity,
  type RelReadNotes,
  type RelRelation,
} from '../../scoring/index.ts';
import type { FamilyScoring } from '../family.ts';
import type { RelResult } from './types.ts';
import { withoutIds } from '../common/documents.ts';

export interface RelGold {
  entities: RelEntity[];
  relations: RelRelation[];
  pmids?: Set<string>;
}

const GOLD_FORM =
  '{"entities": "<DrugProt entities TSV>", "relations": "<DrugProt relations TSV>", "pmids"?: "<one pmid a line>"} (runs: {"relations": "…"})';

function field(body: unknown, name: string, what: string, required: boolean): string | undefined {
  const value = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') {
    throw new ScoringInputError(`the REL ${what} needs "${name}" as a string`, {
      hint: `send JSON of the form ${GOLD_FORM} with Content-Type: application/json`,
    });
  }
  return value;
}

/** DrugProt's 13 types, then any other type the gold has (so that a challenge's own types are scored too). */
function typesFor(gold: readonly RelRelation[]): string[] {
  const types: string[] = [...DRUGPROT_RELATION_TYPES];
  for (const r of gold) if (!types.includes(r.type)) types.push(r.type);
  return types;
}

/** What reading left out, as notes for the person scoring. */
function describeNotes(side: string, n: RelReadNotes): string[] {
  const notes: string[] = [];
  if (n.offList) notes.push(`${side}: ${n.offList} relation line(s) of documents not in the pmids list left out`);
  if (n.unknownType) notes.push(`${side}: ${n.unknownType} relation line(s) of a type that is not scored left out`);
  if (n.duplicates) notes.push(`${side}: ${n.duplicates} repeated relation line(s) counted once`);
  if (n.notChemicalGene)
    notes.push(`${side}: ${n.notChemicalGene} relation line(s) not joining one CHEMICAL and one other entity left out`);
  if (n.keptSingleBadLine)
    notes.push(
      `${side}: one relation line does not join one CHEMICAL and one other entity; kept, as the official library keeps a single one`,
    );
  if (n.notOnPair) notes.push(`${side}: ${n.notOnPair} relation(s) not on a (CHEMICAL, GENE) pair of the entities file, not scored`);
  return notes;
}

/** Entities the library pairs with nothing (types other than CHEMICAL and GENE), and GENE-Y / GENE-N read as GENE, as warnings. */
function unpairedTypesWarning(entities: readonly RelEntity[], file: string): string[] {
  const pairingType = pairingTypes(entities);
  const counts = new Map<string, number>();
  const asGene = new Map<string, number>();
  for (const e of entities) {
    if (pairingType(e.type) !== e.type) asGene.set(e.type, (asGene.get(e.type) ?? 0) + 1);
    else if (e.type !== DRUGPROT_CHEMICAL && e.type !== DRUGPROT_GENE) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  }
  const listed = (m: Map<string, number>): string => [...m].map(([type, n]) => `${n} ${type}`).join(', ');
  const warnings: string[] = [];
  if (asGene.size > 0)
    warnings.push(
      `${file}: ${listed(asGene)} entities scored as GENE (the DrugProt corpus types genes GENE-Y and GENE-N; the evaluation library knows only GENE and stops on such a file, while its README defines argument 2 as a GENE)`,
    );
  if (counts.size > 0)
    warnings.push(
      `${file}: ${listed(counts)} entit${[...counts.values()].reduce((a, b) => a + b) === 1 ? 'y' : 'ies'} make no pairs: the DrugProt library pairs CHEMICAL with GENE only`,
    );
  return warnings;
}

export const relScoring: FamilyScoring<RelGold, RelRelation[]> = {
  mainFigure: 'micro.f',
  options: [],
  upload: 'json',
  goldForm: GOLD_FORM,
  parseGold(body) {
    const entities = parseRelEntities(field(body, 'entities', 'gold standard', true)!, { file: 'entities' });
    const relations = parseRelRelations(field(body, 'relations', 'gold standard', true)!, { file: 'relations' });
    const pmidsText = field(body, 'pmids', 'gold standard', false);
    const pmids = pmidsText === undefined ? undefined : parsePmids(pmidsText);
    const documents = new Set(entities.map((e) => e.pmid));
    if (documents.size === 0)
      throw new ScoringInputError('the REL gold standard has no entities', {
        hint: 'send the DrugProt entities file of the gold documents',
      });
    return {
      gold: { entities, relations, pmids },
      documents: documents.size,
      items: relations.length,
      warnings: unpairedTypesWarning(entities, 'entities'),
    };
  },
  goldDocuments: (gold) => gold.pmids ?? new Set(gold.entities.map((e) => e.pmid)),
  // Without a pmids list the gold's documents are its entities' (scoreRelations), so dropping those drops the document.
  withoutDocuments: (gold, documents) => ({
    entities: gold.entities.filter((e) => !documents.has(e.pmid)),
    relations: gold.relations.filter((r) => !documents.has(r.pmid)),
    ...(gold.pmids ? { pmids: withoutIds(gold.pmids, documents) } : {}),
  }),
  parseRun: (body) => ({ run: parseRelRelations(field(body, 'relations', 'run', true)!, { file: 'relations' }), warnings: [] }),
  onlineRun(answers) {
    return answers.flatMap((a) =>
      ((a.value as RelResult | null)?.relations ?? []).map((r) => ({ pmid: a.doc, type: r.type, arg1: r.arg1, arg2: r.arg2 })),
    );
  },
  score(gold, run) {
    const { micro, perType, ...rest } = scoreRelations({
      entities: gold.entities,
      gold: gold.relations,
      predicted: run,
      pmids: gold.pmids,
      types: typesFor(gold.relations),
    });
    return { metrics: { micro, perType, ...rest } };
  },
  exportTsv: (run) => run.map((r) => `${r.pmid}\t${r.type}\tArg1:${r.arg1}\tArg2:${r.arg2}\n`).join(''),
  cli: {
    flags: ['entities', 'pmids'],
    runs: 'DrugProt relations TSV files',
    reads: ['drugprot-tsv'],
    check(o) {
      if (!o.entities) throw new UsageError('REL needs --entities FILE (the DrugProt entities of the gold documents)');
    },
    async score(runs, o, files) {
      const entities = parseRelEntities(await files.read(o.entities!), { file: o.entities });
      files.warn(unpairedTypesWarning(entities, o.entities!));
      const gold = parseRelRelations(await files.read(o.gold!), { file: o.gold });
      const pmids = o.pmids === undefined ? undefined : parsePmids(await files.read(o.pmids));
      const scored = [];
      for (const path of runs) {
        // As the official library, prediction lines of other documents are left out unread.
        const keep = pmids ?? new Set(entities.map((e) => e.pmid));
        const text = await files.read(path);
        const predicted = parseRelRelations(text, { file: path, pmids: keep });
        const notes = { gold: emptyRelNotes(), predicted: emptyRelNotes() };
        notes.predicted.offList = text.split('\n').filter((l) => l.trim() !== '' && !keep.has(l.split('\t')[0])).length;
        const score = scoreRelations({ entities, gold, predicted, pmids: keep }, notes);
        const run = runName(path);
        files.note(run, [...(scored.length === 0 ? describeNotes('gold', notes.gold) : []), ...describeNotes('run', notes.predicted)]);
        scored.push({
          run,
          metrics: { micro: score.micro, perType: score.perType, gold: score.gold, predicted: score.predicted, pairs: score.pairs },
        });
      }
      return scored;
    },
  },
};
