// Validating one decoded answer struct (validation.md): each task's key is checked by its
// family's validator (src/families); errors make the answer invalid, warnings keep it and
// are stored. A task's normalised result is kept only when that task had no error.
// Choices the spec leaves open are listed in src/tasks/README.md.

import { familyOf, familyOfAnswerKey, isTaskName, type AnswerResult } from './registry.ts';
import type { TaskInput, ValidationContext } from './family.ts';
import { describe, isStruct, Report } from '../tasks/checks.ts';
import { CodePointText } from '../shared/code-points.ts';
import type { ValidationIssue } from '../tasks/types.ts';

export type { ValidationContext } from './family.ts';

export interface ValidatedAnswer {
  result: AnswerResult;
  /** Non-empty → the answer is invalid; the attempt fails and is reissued. */
  errors: ValidationIssue[];
  /** The answer stays valid; items were dropped or mapped. */
  warnings: ValidationIssue[];
}

const answerKeys = (tasks: readonly string[]): string => tasks.flatMap((t) => (isTaskName(t) ? [familyOf(t).answerKey] : [])).join(', ');

export function validateAnswer(value: unknown, ctx: ValidationContext): ValidatedAnswer {
  const report = new Report();
  const result: Record<string, unknown> = {};
  const done = (): ValidatedAnswer => ({ result: result, errors: report.errors, warnings: report.warnings });
  if (!isStruct(value)) {
    report.error('(answer)', `expected a struct with one key per task (${answerKeys(ctx.tasks)}), got ${describe(value)}`);
    return done();
  }
  let input: (TaskInput & { answered: Record<string, unknown> }) | undefined;
  const asked = (key: string): boolean => {
    const family = familyOfAnswerKey(key);
    return family !== undefined && ctx.tasks.includes(family.name);
  };
  // Keys another asked family reads (CREL reads the mentions' ids) are validated first, and
  // validated even when their own task was not asked: the reader needs them checked.
  const entries = Object.entries(value);
  const read = new Set(entries.flatMap(([key]) => (asked(key) ? (familyOfAnswerKey(key)?.reads ?? []) : [])));
  entries.sort(([a], [b]) => Number(read.has(b)) - Number(read.has(a)));
  for (const [key, field] of entries) {
    const family = familyOfAnswerKey(key);
    if (!family) {
      report.warn(key, `unknown key ignored (this server answers: ${answerKeys(ctx.tasks) || 'none'})`);
      continue;
    }
    const readOnly = !ctx.tasks.includes(family.name);
    if (readOnly && !read.has(key)) {
      report.warn(key, `task ${family.name} was not asked of this server; ignored`);
      continue;
    }
    // Nil is what Python servers send for None: read as "no result for this task".
    if (field === null) {
      report.warn(key, 'nil read as no result for this task');
      continue;
    }
    input ??= { ...ctx, codePoints: new CodePointText(ctx.text), answered: {} };
    const errorsBefore = report.errors.length;
    const checked = family.validate(field, input, report, ctx.lookups?.[family.name] ?? null);
    if (checked === undefined || report.errors.length !== errorsBefore) continue;
    input.answered[key] = checked;
    if (!readOnly) result[family.name] = checked;
  }
  return done();
}
