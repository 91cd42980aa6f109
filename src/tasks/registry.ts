// One validator per task family, keyed by task name: decode + validate + normalise the
// value found under the task's answer key.

import { validateAct } from './act.ts';
import type { Report } from './checks.ts';
import { validateCoref } from './coref.ts';
import { validateInt } from './int.ts';
import { validateIpt } from './ipt.ts';
import { validateMention } from './mention.ts';
import type { CodePointText } from './text.ts';
import type { AnswerResult, TaskName } from './types.ts';
import type { ValidationContext } from './validate.ts';

/** What each validator receives besides the value: the call's context, with the article text prepared once for code-point offsets. */
export interface TaskInput extends ValidationContext {
  codePoints: CodePointText;
}

export type TaskValidator<T extends TaskName> = (value: unknown, input: TaskInput, report: Report) => AnswerResult[T] | undefined;

export const TASK_VALIDATORS: { [T in TaskName]: TaskValidator<T> } = {
  ACT: validateAct,
  INT: validateInt,
  IPT: validateIpt,
  MENTION: validateMention,
  COREF: validateCoref,
};
