// TOPIC: `topics` = array of struct {label: string, confidence?: double}, each label one of
// the challenge's label set (LitCovid's seven unless it names others) and given once. An
// empty array says the article has none of the topics.

import { checkArray, checkConfidence, checkStruct, type FieldSpec, type Report } from '../../tasks/checks.ts';
import type { TaskInput } from '../family.ts';
import { topicLabelsOf } from './labels.ts';
import type { TopicItem, TopicResult } from './types.ts';

export const TOPIC_KEY = 'topics';

const FIELDS: Record<string, FieldSpec> = {
  label: { kind: 'string', required: true },
  confidence: { kind: 'double' },
};

export function validateTopic(value: unknown, input: TaskInput, report: Report): TopicResult | undefined {
  const items = checkArray(value, TOPIC_KEY, 'structs {label, confidence?}', report);
  if (!items) return undefined;
  const labels = topicLabelsOf(input);
  const known = new Set(labels);
  const firstAt = new Map<string, number>();
  const errorsBefore = report.errors.length;
  const result: TopicResult = [];
  items.forEach((raw, i) => {
    const path = `${TOPIC_KEY}[${i}]`;
    const fields = checkStruct(raw, path, FIELDS, report);
    if (!fields || typeof fields.label !== 'string') return;
    const label = fields.label;
    if (!known.has(label)) {
      report.error(`${path}.label`, `"${label}" is not a label of this challenge (labels: ${labels.join(', ')})`);
      return;
    }
    const first = firstAt.get(label);
    if (first !== undefined) {
      report.error(`${path}.label`, `"${label}" is already given in ${TOPIC_KEY}[${first}]; give each label once`);
      return;
    }
    firstAt.set(label, i);
    const item: TopicItem = { label };
    if (fields.confidence !== undefined) {
      const confidence = checkConfidence(fields.confidence, `${path}.confidence`, report);
      if (confidence === undefined) return;
      item.confidence = confidence;
    }
    result.push(item);
  });
  return report.errors.length > errorsBefore ? undefined : result;
}
