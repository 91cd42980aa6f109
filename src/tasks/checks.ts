// Shared checks of decoded XML-RPC values: which XML-RPC type a JS value came from,
// struct fields of the expected type, confidence and rank ranges. Every message starts
// from the exact path (`normalizations[3].confidence`), so a team can find the item.

import type { ValidationIssue } from './types.ts';

/** Collects the errors and warnings of one answer. */
export class Report {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  error(path: string, message: string): void {
    this.errors.push({ path, message });
  }
  warn(path: string, message: string): void {
    this.warnings.push({ path, message });
  }
}

export type Struct = Record<string, unknown>;

/** An XML-RPC struct decodes to a plain object; arrays, dates and base64 do not count. */
export function isStruct(value: unknown): value is Struct {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value) || value instanceof Date || value instanceof Uint8Array) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

const SHOWN_CHARS = 40;

/** The XML-RPC type a decoded value came from, with a short rendering of it. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'boolean') return `boolean ${value ? 1 : 0}`;
  if (typeof value === 'number') return `number ${value}`;
  if (typeof value === 'string') {
    const shown = value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (value instanceof Date) return 'dateTime';
  if (value instanceof Uint8Array) return 'base64';
  if (isStruct(value)) return 'struct';
  return typeof value;
}

export type FieldKind = 'string' | 'int' | 'double' | 'array';

export interface FieldSpec {
  kind: FieldKind;
  required?: boolean;
}

const KIND_NAMES: Record<FieldKind, string> = { string: 'a string', int: 'an int', double: 'a double', array: 'an array' };

/** Whether the value has the XML-RPC type; int and double both decode to numbers. */
function hasKind(value: unknown, kind: FieldKind): boolean {
  if (kind === 'string') return typeof value === 'string';
  if (kind === 'int') return typeof value === 'number' && Number.isInteger(value);
  if (kind === 'array') return Array.isArray(value);
  return typeof value === 'number';
}

/**
 * Checks the fields of a struct against `fields`: missing required fields and wrong
 * types are errors, unknown fields are warnings (ignored). Nil stands for an absent field
 * (Python servers send None). Returns the fields that had the right type.
 */
export function checkStruct(value: unknown, path: string, fields: Record<string, FieldSpec>, report: Report): Struct | undefined {
  if (!isStruct(value)) {
    report.error(path, `expected a struct, got ${describe(value)}`);
    return undefined;
  }
  const good: Struct = {};
  for (const [name, spec] of Object.entries(fields)) {
    const field = value[name];
    if (field === undefined || field === null) {
      if (spec.required) report.error(`${path}.${name}`, `required field is missing`);
      continue;
    }
    // Ranges (confidence, rank) get their own, more precise messages below.
    if (name === 'confidence' || name === 'rank') {
      good[name] = field;
      continue;
    }
    if (hasKind(field, spec.kind)) good[name] = field;
    else report.error(`${path}.${name}`, `expected ${KIND_NAMES[spec.kind]}, got ${describe(field)}`);
  }
  for (const name of Object.keys(value)) {
    if (!(name in fields)) report.warn(`${path}.${name}`, `unknown field ignored (known: ${Object.keys(fields).join(', ')})`);
  }
  return good;
}

/** Confidence must be a number in (0,1]: 0 excluded, 1 included. */
export function checkConfidence(value: unknown, path: string, report: Report): number | undefined {
  if (typeof value !== 'number') {
    report.error(path, `expected a double in (0,1], got ${describe(value)}`);
    return undefined;
  }
  if (!(value > 0 && value <= 1)) {
    report.error(path, `${value} is not in (0,1]`);
    return undefined;
  }
  return value;
}

export function checkRank(value: unknown, path: string, report: Report): number | undefined {
  if (typeof value !== 'number') {
    report.error(path, `expected an int ≥ 1, got ${describe(value)}`);
    return undefined;
  }
  if (!Number.isInteger(value) || value < 1) {
    report.error(path, `${value} is not an integer ≥ 1`);
    return undefined;
  }
  return value;
}

/**
 * Ranks must be unique within the article and task: reports every repeat, naming the
 * item that used the rank first.
 */
export function checkUniqueRanks(ranks: (number | undefined)[], key: string, report: Report): void {
  const firstUse = new Map<number, number>();
  ranks.forEach((rank, i) => {
    if (rank === undefined) return;
    const first = firstUse.get(rank);
    if (first === undefined) firstUse.set(rank, i);
    else report.error(`${key}[${i}].rank`, `rank ${rank} is already used by ${key}[${first}]`);
  });
}

/** The task's value must be an array; returns it or reports the wrong type. */
export function checkArray(value: unknown, path: string, what: string, report: Report): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  report.error(path, `expected an array of ${what}, got ${describe(value)}`);
  return undefined;
}
