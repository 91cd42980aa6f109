// MENTION: `mentions` = array of struct {offset, mention, type?, ids?, section?,
// confidence?, rank?}. `offset` counts code points; text[offset, offset + length(mention))
// must equal `mention`. Stored as {start, end, text, …} in code points. `ids` are concept
// ids `NS:accession`, checked in ids.ts against the challenge's namespaces and the
// release lists loaded.

import { checkArray, checkConfidence, checkRank, checkStruct, checkUniqueRanks, type FieldSpec, type Report } from '../../tasks/checks.ts';
import type { TaskInput } from '../family.ts';
import { offsetHint } from '../../tasks/offset-hint.ts';
import { codePointLength } from '../../shared/code-points.ts';
import type { MentionItem } from './types.ts';
import { checkMentionIds } from './ids.ts';
import type { ConceptIdLists } from './id-lists.ts';

const KEY = 'mentions';

const FIELDS: Record<string, FieldSpec> = {
  offset: { kind: 'int', required: true },
  mention: { kind: 'string', required: true },
  type: { kind: 'string' },
  ids: { kind: 'array' },
  section: { kind: 'string' },
  confidence: { kind: 'double' },
  rank: { kind: 'int' },
};

const SHOWN = 60;
const show = (s: string): string => JSON.stringify(s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s);

export function validateMention(
  value: unknown,
  input: TaskInput,
  report: Report,
  lists: ConceptIdLists | null = null,
): MentionItem[] | undefined {
  const list = checkArray(value, KEY, 'structs {offset, mention, type?, ids?, section?, confidence?}', report);
  if (!list) return undefined;
  const text = input.codePoints;
  const types = input.mentionTypes && input.mentionTypes.length > 0 ? input.mentionTypes : null;
  const errorsBefore = report.errors.length;
  const items: MentionItem[] = [];
  /** Position in the list as sent of each item, for messages. */
  const sentAt: number[] = [];
  const ranks: (number | undefined)[] = [];
  list.forEach((entry, index) => {
    const path = `${KEY}[${index}]`;
    const fields = checkStruct(entry, path, FIELDS, report);
    if (!fields) return;
    const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
    ranks[index] = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
    const type = fields.type as string | undefined;
    if (type !== undefined && types && !types.includes(type)) {
      report.error(`${path}.type`, `${show(type)} is not a mention type of this challenge (${types.join(', ')})`);
    }
    const ids =
      fields.ids === undefined
        ? undefined
        : checkMentionIds(fields.ids as unknown[], path, { type, rules: input.mentionNamespaces, lists }, report);
    const offset = fields.offset as number | undefined;
    const mention = fields.mention as string | undefined;
    if (offset === undefined || mention === undefined) return;
    if (offset < 0) {
      report.error(`${path}.offset`, `${offset} is negative; offsets count code points from 0`);
      return;
    }
    if (mention === '') {
      report.error(`${path}.mention`, 'empty mention; a mention covers at least one character');
      return;
    }
    const end = offset + codePointLength(mention);
    if (end > text.length) {
      report.error(
        `${path}.offset`,
        `the span [${offset}, ${end}) runs past the end of the text (${text.length} code points)${offsetHint(text, mention, offset)}`,
      );
      return;
    }
    const actual = text.slice(offset, end);
    if (actual !== mention) {
      report.error(
        `${path}.mention`,
        `${show(mention)} differs from the text at offset ${offset}, which is ${show(actual)}${offsetHint(text, mention, offset)}`,
      );
      return;
    }
    sentAt.push(index);
    items.push({
      start: offset,
      end,
      text: mention,
      ...(type !== undefined ? { type } : {}),
      ...(ids !== undefined ? { ids } : {}),
      ...(confidence !== undefined ? { confidence } : {}),
      ...(fields.section !== undefined ? { section: fields.section as string } : {}),
      ...(ranks[index] !== undefined ? { rank: ranks[index] } : {}),
    });
  });
  checkUniqueRanks(ranks, KEY, report);
  if (report.errors.length > errorsBefore) return undefined;
  // The same span and type twice would count twice in scoring: keep the first.
  const seen = new Map<string, number>();
  return items.filter((item, i) => {
    const key = `${item.start}:${item.end}:${item.type ?? ''}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return true;
    }
    report.warn(`${KEY}[${sentAt[i]}]`, `repeats ${KEY}[${sentAt[first]}] (same span [${item.start}, ${item.end}) and type); dropped`);
    return false;
  });
}
