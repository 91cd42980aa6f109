// THE list of task families. Adding a family is its folder and one line here, and its name
// in src/tasks/names.ts (the leaf the floors below the families read): a family listed
// here and not there fails to compile (TaskName) and stops the meta-server at start (the
// check at the end of this file; test/families/seam.unit.test.ts runs it too). Every
// consumer — validation, dispatch, leaderboards, `metaserver score` and `export`, the
// public XML-RPC API, consensus, exports, web pages, the configuration, the command line
// and the database's table of task names — reads the families from this list.

import { act } from './act/index.ts';
import { coref } from './coref/index.ts';
import { crel } from './crel/index.ts';
import type { AnyFamily, TaskFamily } from './family.ts';
import { int } from './int/index.ts';
import { ipt } from './ipt/index.ts';
import { mention } from './mention/index.ts';
import { rel } from './rel/index.ts';
import { topic } from './topic/index.ts';
import { tx } from './tx/index.ts';
import { FAMILY_SETTINGS, TASK_NAMES as LEAF_NAMES, type TaskName as LeafTaskName } from '../tasks/names.ts';

export const FAMILIES = [act, int, ipt, mention, coref, tx, topic, rel, crel] as const;

type Family = (typeof FAMILIES)[number];

export type TaskName = Family['name'];

type ResultOf<F> = F extends Omit<TaskFamily<string, infer R>, 'settings'> ? R : never;
type VoteOf<F> = F extends Omit<TaskFamily<string, unknown, unknown, unknown, infer V>, 'settings'> ? V : never;

/** The validated, normalised answer of one server for one article: one entry per task answered. */
export type AnswerResult = { [F in Family as F['name']]?: ResultOf<F> };

/** The weighted-voting consensus of one article: one entry per task with a vote. */
export type Consensus = { [F in Family as unknown extends VoteOf<F> ? never : F['name']]?: VoteOf<F> };

export const TASK_NAMES: readonly TaskName[] = FAMILIES.map((f) => f.name);

const BY_NAME = new Map<string, AnyFamily>(FAMILIES.map((f) => [f.name, f as unknown as AnyFamily]));
const BY_ANSWER_KEY = new Map<string, AnyFamily>(FAMILIES.map((f) => [f.answerKey, f as unknown as AnyFamily]));

export function isTaskName(value: string): value is TaskName {
  return BY_NAME.has(value);
}

/** The family of a task name (checked with isTaskName, or stored by us). */
export function familyOf(task: TaskName): AnyFamily {
  const family = BY_NAME.get(task);
  if (!family) throw new Error(`unknown task ${JSON.stringify(task)}`);
  return family;
}

/** The family whose answers travel under this key of the answer struct. */
export function familyOfAnswerKey(key: string): AnyFamily | undefined {
  return BY_ANSWER_KEY.get(key);
}

/** Every family, registry order, typed for consumers that treat them alike. */
export const ALL_FAMILIES: readonly AnyFamily[] = FAMILIES.map((f) => f as unknown as AnyFamily);

/** The task names of the families that have something, registry order. */
export function tasksWith(has: (family: AnyFamily) => unknown): TaskName[] {
  return ALL_FAMILIES.filter((f) => has(f)).map((f) => f.name as TaskName);
}

// Names go into SQL (reliability counting) and file names: one word each, checked once.
const WORD = /^[A-Za-z][A-Za-z0-9_]*$/;
for (const f of ALL_FAMILIES) {
  const counted = f.counting.count === 'items' ? (f.counting.in ?? []) : [];
  if (!/^[A-Z][A-Z0-9_]*$/.test(f.name) || ![f.answerKey, ...counted].every((w) => WORD.test(w)))
    throw new Error(`task family ${f.name}: a name or key is not one word`);
  if (f.lookup && !f.settings?.[f.lookup.setting])
    throw new Error(`task family ${f.name}: its index is named by setting "${f.lookup.setting}", which it does not declare`);
}
if (BY_NAME.size !== FAMILIES.length || BY_ANSWER_KEY.size !== FAMILIES.length)
  throw new Error('two task families share a name or an answer key');

// The leaf (src/tasks/names.ts) names the families for configuration, migrations and
// request schemas: it must list the same names in the same order, and hold the settings
// each family declares.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _leafNamesAgree: Same<TaskName, LeafTaskName> = true;
if (TASK_NAMES.join() !== LEAF_NAMES.join()) {
  throw new Error(
    `the task families (${TASK_NAMES.join(', ')}) and the names in src/tasks/names.ts (${LEAF_NAMES.join(', ')}) differ: list each family in both, in the same order`,
  );
}
for (const f of ALL_FAMILIES) {
  const declared: object | undefined = (FAMILY_SETTINGS as Partial<Record<string, object>>)[f.name];
  if (declared ? f.settings !== declared : Object.keys(f.settings ?? {}).length > 0)
    throw new Error(`task family ${f.name}: its settings must be the ones src/tasks/names.ts holds for it (FAMILY_SETTINGS.${f.name})`);
}
