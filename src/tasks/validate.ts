// Validating one decoded answer struct (validation.md): each task's key is checked by its
// family's validator; errors make the answer invalid, warnings keep it and are stored.
// A task's normalised result is kept only when that task had no error. Choices the spec
// leaves open are listed in README.md beside this file.

import type { AccessionLookup } from '../uniprot/index.ts';
import { describe, isStruct, Report } from './checks.ts';
import { TASK_VALIDATORS, type TaskInput } from './registry.ts';
import { CodePointText } from './text.ts';
import { ANSWER_KEYS, TASK_NAMES, type AnswerResult, type TaskName, type ValidatedAnswer } from './types.ts';

export interface ValidationContext {
  tasks: TaskName[]; // tasks asked of this server
  text: string; // the article text exactly as sent (JS string; offsets in the answer are Unicode CODE POINTS)
  given?: string; // COREF given proteins (.a1 lines), if any
  mentionTypes?: string[]; // the challenge's declared mention types (empty/undefined = any)
  accessions: AccessionLookup | null; // null = pattern check only
}

const TASK_OF_KEY = new Map<string, TaskName>(TASK_NAMES.map((task) => [ANSWER_KEYS[task], task]));

function setResult(result: AnswerResult, task: TaskName, value: AnswerResult[TaskName]): void {
  (result as Record<TaskName, unknown>)[task] = value;
}

export function validateAnswer(value: unknown, ctx: ValidationContext): ValidatedAnswer {
  const report = new Report();
  const result: AnswerResult = {};
  if (!isStruct(value)) {
    const keys = ctx.tasks.map((task) => ANSWER_KEYS[task]).join(', ');
    report.error('(answer)', `expected a struct with one key per task (${keys}), got ${describe(value)}`);
    return { result, errors: report.errors, warnings: report.warnings };
  }
  let input: TaskInput | undefined;
  for (const [key, field] of Object.entries(value)) {
    const task = TASK_OF_KEY.get(key);
    if (!task) {
      const known = ctx.tasks.map((t) => ANSWER_KEYS[t]).join(', ') || 'none';
      report.warn(key, `unknown key ignored (this server answers: ${known})`);
      continue;
    }
    if (!ctx.tasks.includes(task)) {
      report.warn(key, `task ${task} was not asked of this server; ignored`);
      continue;
    }
    // Nil is what Python servers send for None: read as "no result for this task".
    if (field === null) {
      report.warn(key, 'nil read as no result for this task');
      continue;
    }
    input ??= { ...ctx, codePoints: new CodePointText(ctx.text) };
    const errorsBefore = report.errors.length;
    const validator = TASK_VALIDATORS[task] as (v: unknown, i: TaskInput, r: Report) => AnswerResult[TaskName];
    const checked = validator(field, input, report);
    if (checked !== undefined && report.errors.length === errorsBefore) setResult(result, task, checked);
  }
  return { result, errors: report.errors, warnings: report.warnings };
}
