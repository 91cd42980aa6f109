// REL: `relations` = array of struct {type, arg1, arg2, confidence?, rank?}; arg1 and arg2
// are ids of the article's given entities (its `given` lines, given.ts). Checked: the type
// is one of the challenge's relation types (DrugProt's 13 unless the challenge names
// others), both arguments are given entities, each argument's entity type is allowed for
// it when the challenge says which are, and no relation comes twice (the same type and
// arguments). Any error refuses the answer, with the item's path (`relations[3].arg2`).

import { checkArray, checkConfidence, checkRank, checkStruct, checkUniqueRanks, type FieldSpec, type Report } from '../../tasks/checks.ts';
import { DRUGPROT_RELATION_TYPES } from '../../scoring/index.ts';
import type { TaskInput } from '../family.ts';
import { readGivenEntities } from './given.ts';
import type { RelGivenEntity, RelItem, RelResult } from './types.ts';

export const REL_KEY = 'relations';

const FIELDS: Record<string, FieldSpec> = {
  type: { kind: 'string', required: true },
  arg1: { kind: 'string', required: true },
  arg2: { kind: 'string', required: true },
  confidence: { kind: 'double' },
  rank: { kind: 'int' },
};

const show = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** The relation types a challenge takes: its own, or DrugProt's. */
function relationTypesOf(input: Pick<TaskInput, 'relationTypes'>): readonly string[] {
  return input.relationTypes && input.relationTypes.length > 0 ? input.relationTypes : DRUGPROT_RELATION_TYPES;
}

export function validateRel(value: unknown, input: TaskInput, report: Report): RelResult | undefined {
  const list = checkArray(value, REL_KEY, 'structs {type, arg1, arg2, confidence?, rank?}', report);
  if (!list) return undefined;
  const types = relationTypesOf(input);
  const given = readGivenEntities(input.given);
  const allowed = input.relationArguments ?? {};
  const errorsBefore = report.errors.length;
  const relations: RelItem[] = [];
  const ranks: (number | undefined)[] = [];
  const firstAt = new Map<string, number>();
  list.forEach((entry, index) => {
    const path = `${REL_KEY}[${index}]`;
    const fields = checkStruct(entry, path, FIELDS, report);
    if (!fields) return;
    const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
    ranks[index] = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
    const type = fields.type as string | undefined;
    if (type !== undefined && !types.includes(type)) {
      report.error(`${path}.type`, `${show(type)} is not a relation type of this challenge (${types.join(', ')})`);
    }
    let argsKnown = true;
    for (const arg of ['arg1', 'arg2'] as const) {
      const id = fields[arg] as string | undefined;
      if (id === undefined) {
        argsKnown = false;
        continue;
      }
      const entity = given.get(id);
      if (!entity) {
        argsKnown = false;
        const known = [...given.keys()];
        report.error(
          `${path}.${arg}`,
          `${show(id)} is not a given entity of this article (${known.length === 0 ? 'it has none' : `given: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}`}); name an entity by the id it was sent with`,
        );
        continue;
      }
      const types = allowed[arg];
      if (types && types.length > 0 && !types.includes(entity.type)) {
        report.error(`${path}.${arg}`, `${id} is a ${entity.type} entity; this challenge takes ${types.join(' or ')} as ${arg}`);
      }
    }
    if (type === undefined || !argsKnown) return;
    const item: RelItem = { type, arg1: fields.arg1 as string, arg2: fields.arg2 as string };
    const key = `${item.type}\t${item.arg1}\t${item.arg2}`;
    const first = firstAt.get(key);
    if (first !== undefined) {
      report.error(path, `repeats ${REL_KEY}[${first}] (${item.type} ${item.arg1} → ${item.arg2}); give each relation once`);
      return;
    }
    firstAt.set(key, index);
    if (confidence !== undefined) item.confidence = confidence;
    if (ranks[index] !== undefined) item.rank = ranks[index];
    relations.push(item);
  });
  checkUniqueRanks(ranks, REL_KEY, report);
  if (report.errors.length > errorsBefore) return undefined;
  const named = new Set(relations.flatMap((r) => [r.arg1, r.arg2]));
  const entities: RelGivenEntity[] = [...given.values()].filter((e) => named.has(e.id));
  return { relations, entities };
}
