// CREL: `concept_relations` = array of struct {type, concept1, concept2, novelty?,
// confidence?, rank?}. The concepts are named by the ids the same answer's `mentions`
// carry (`NS:accession`, any known spelling of NS), so the relation is between concepts
// the server found in the text. Checked, each at its item's path
// (`concept_relations[2].concept1`): the type is one of the challenge's (BioRED's eight and
// CID unless it names others), novelty is `Novel` or `No`, each id is well formed and
// carried by a mention, the two concepts differ. The same (type, unordered pair) twice is
// a warning and the repeat is dropped. Stored with concept1 < concept2 (string order) and
// the mentions carrying the related concepts.

import { checkArray, checkConfidence, checkRank, checkStruct, checkUniqueRanks, type FieldSpec, type Report } from '../../tasks/checks.ts';
import { conceptIdProblem, formatConceptId, readConceptId } from '../../tasks/concept-ids.ts';
import type { MentionItem } from '../mention/types.ts';
import type { TaskInput } from '../family.ts';
import { NOVELTIES, type CrelItem, type CrelMention, type CrelResult, type Novelty } from './types.ts';
import { orderedPair } from '../../scoring/concept-relations.ts';

export const CREL_KEY = 'concept_relations';
/** The answer key whose items carry the concept ids (MENTION's). */
export const MENTIONS_KEY = 'mentions';

/** BioRED's eight relation types (as its files write them), then BC5CDR's chemical-induced disease. */
const CREL_DEFAULT_TYPES: readonly string[] = [
  'Association',
  'Positive_Correlation',
  'Negative_Correlation',
  'Bind',
  'Cotreatment',
  'Comparison',
  'Drug_Interaction',
  'Conversion',
  'CID',
];

const FIELDS: Record<string, FieldSpec> = {
  type: { kind: 'string', required: true },
  concept1: { kind: 'string', required: true },
  concept2: { kind: 'string', required: true },
  novelty: { kind: 'string' },
  confidence: { kind: 'double' },
  rank: { kind: 'int' },
};

const SHOWN_IDS = 8;
const show = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** The relation types a challenge takes: its own, or BioRED's eight and CID. */
function conceptRelationTypesOf(input: Pick<TaskInput, 'conceptRelationTypes'>): readonly string[] {
  return input.conceptRelationTypes && input.conceptRelationTypes.length > 0 ? input.conceptRelationTypes : CREL_DEFAULT_TYPES;
}

/** The ids the answer's mentions carry, with the mentions carrying each. */
function carriedIds(mentions: readonly MentionItem[]): Map<string, MentionItem[]> {
  const carried = new Map<string, MentionItem[]>();
  for (const m of mentions) for (const id of m.ids ?? []) carried.set(id, [...(carried.get(id) ?? []), m]);
  return carried;
}

function carriedList(carried: ReadonlyMap<string, unknown>): string {
  if (carried.size === 0) return 'the mentions carry no ids';
  const ids = [...carried.keys()];
  return `the mentions carry ${ids.slice(0, SHOWN_IDS).join(', ')}${ids.length > SHOWN_IDS ? `, … (${ids.length} in all)` : ''}`;
}

/** One concept id as sent, read into the stored form, or an error at its path. */
function readConcept(written: string, path: string, carried: ReadonlyMap<string, unknown>, report: Report): string | undefined {
  const id = readConceptId(written);
  if (!id) {
    report.error(path, `${show(written)} has no namespace; name the concept as the mention's ids do (NS:accession, e.g. MESH:D003693)`);
    return undefined;
  }
  const problem = conceptIdProblem(id);
  if (problem) {
    report.error(path, `${show(written)}: ${problem}`);
    return undefined;
  }
  const stored = formatConceptId(id);
  if (!carried.has(stored)) {
    report.error(path, `${stored} is carried by no mention of this answer (${carriedList(carried)}); relate concepts the mentions name`);
    return undefined;
  }
  return stored;
}

/** One item: its fields checked, or undefined (errors reported) when it cannot be kept. */
function readItem(entry: unknown, path: string, types: readonly string[], carried: ReadonlyMap<string, unknown>, report: Report) {
  const fields = checkStruct(entry, path, FIELDS, report);
  if (!fields) return { rank: undefined };
  const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
  const rank = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
  const type = fields.type as string | undefined;
  if (type !== undefined && !types.includes(type))
    report.error(`${path}.type`, `${show(type)} is not a relation type of this challenge (${types.join(', ')})`);
  const novelty = fields.novelty as string | undefined;
  if (novelty !== undefined && !NOVELTIES.includes(novelty as Novelty))
    report.error(`${path}.novelty`, `${show(novelty)} is not a novelty; send "Novel" (a finding of the article) or "No" (background)`);
  const c1 = fields.concept1 === undefined ? undefined : readConcept(fields.concept1 as string, `${path}.concept1`, carried, report);
  const c2 = fields.concept2 === undefined ? undefined : readConcept(fields.concept2 as string, `${path}.concept2`, carried, report);
  if (c1 !== undefined && c1 === c2) report.error(`${path}.concept2`, `${c2} is concept1 too; a relation joins two concepts`);
  if (type === undefined || !types.includes(type) || c1 === undefined || c2 === undefined || c1 === c2) return { rank };
  const [concept1, concept2] = orderedPair(c1, c2);
  const item: CrelItem = { type, concept1, concept2 };
  if (novelty !== undefined) item.novelty = novelty as Novelty;
  if (confidence !== undefined) item.confidence = confidence;
  if (rank !== undefined) item.rank = rank;
  return { item, rank };
}

export function validateCrel(value: unknown, input: TaskInput, report: Report): CrelResult | undefined {
  const list = checkArray(value, CREL_KEY, 'structs {type, concept1, concept2, novelty?, confidence?, rank?}', report);
  if (!list) return undefined;
  const mentions = input.answered?.[MENTIONS_KEY] as MentionItem[] | undefined;
  if (list.length > 0 && mentions === undefined) {
    report.error(
      CREL_KEY,
      `relations name concepts by the ids of the answer's ${MENTIONS_KEY}, and this answer has no valid ${MENTIONS_KEY}; send the mentions with their ids in the same answer`,
    );
    return undefined;
  }
  const carried = carriedIds(mentions ?? []);
  const types = conceptRelationTypesOf(input);
  const errorsBefore = report.errors.length;
  const relations: CrelItem[] = [];
  const ranks: (number | undefined)[] = [];
  const firstAt = new Map<string, number>();
  list.forEach((entry, index) => {
    const path = `${CREL_KEY}[${index}]`;
    const { item, rank } = readItem(entry, path, types, carried, report);
    ranks[index] = rank;
    if (!item) return;
    const key = `${item.type}\t${item.concept1}\t${item.concept2}`;
    const first = firstAt.get(key);
    if (first !== undefined) {
      report.warn(path, `repeats ${CREL_KEY}[${first}] (${item.type} between ${item.concept1} and ${item.concept2}); dropped`);
      return;
    }
    firstAt.set(key, index);
    relations.push(item);
  });
  checkUniqueRanks(ranks, CREL_KEY, report);
  if (report.errors.length > errorsBefore) return undefined;
  const related = new Set(relations.flatMap((r) => [r.concept1, r.concept2]));
  const shown: CrelMention[] = (mentions ?? [])
    .filter((m) => (m.ids ?? []).some((id) => related.has(id)))
    .map((m) => ({ start: m.start, end: m.end, text: m.text, ...(m.type !== undefined ? { type: m.type } : {}), ids: m.ids ?? [] }));
  return { relations, mentions: shown };
}
