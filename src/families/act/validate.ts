// ACT: article classification, `interaction` = [boolean relevant, double confidence]
// (the BCMS form).

import { checkConfidence, describe, type Report } from '../../tasks/checks.ts';
import type { TaskInput } from '../family.ts';
import type { ActResult } from './types.ts';

const KEY = 'interaction';

export function validateAct(value: unknown, _input: TaskInput, report: Report): ActResult | undefined {
  if (!Array.isArray(value) || value.length !== 2) {
    report.error(KEY, `expected an array [boolean relevant, double confidence], got ${describe(value)}`);
    return undefined;
  }
  const [relevant, confidence] = value as unknown[];
  const errorsBefore = report.errors.length;
  if (typeof relevant !== 'boolean') report.error(`${KEY}[0]`, `expected a boolean (relevant), got ${describe(relevant)}`);
  const checked = checkConfidence(confidence, `${KEY}[1]`, report);
  if (report.errors.length > errorsBefore || typeof relevant !== 'boolean' || checked === undefined) return undefined;
  return { relevant, confidence: checked };
}
