// The scalar XML-RPC types: text in, value out, with range checks. `fail` raises the
// protocol error; the caller adds where in the document it happened.
import type { XmlRpcValue } from './codec-values.ts';

type Fail = (message: string) => never;

const I4_MIN = -2147483648;
const I4_MAX = 2147483647;
const INTEGER = /^[+-]?[0-9]+$/;
const DOUBLE = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const DATE_TIME = /^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const MAX_NUMBER_CHARS = 400;

/**
 * Apache XML-RPC's numeric extensions, as it writes them (prefix `ex`): Java's byte, short,
 * long, float, BigInteger and BigDecimal. Read as numbers, so they are taken wherever a
 * number is expected; the integer ones with their Java ranges.
 */
const EXTENSION_INTEGERS: Record<string, { min: number; max: number; what: string }> = {
  'ex:i1': { min: -128, max: 127, what: 'an 8-bit signed integer' },
  'ex:i2': { min: -32768, max: 32767, what: 'a 16-bit signed integer' },
};
const EXACT_INTEGERS = new Set(['i8', 'ex:i8', 'ex:biginteger']);
const DECIMALS = new Set(['double', 'ex:float', 'ex:bigdecimal']);

export const SCALAR_TYPES = new Set([
  'string',
  'int',
  'i4',
  'i8',
  'double',
  'boolean',
  'dateTime.iso8601',
  'base64',
  'nil',
  'ex:nil',
  'ex:i1',
  'ex:i2',
  'ex:i8',
  'ex:float',
  'ex:biginteger',
  'ex:bigdecimal',
]);

export function show(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function decodeInteger(type: string, raw: string, fail: Fail): number {
  const text = raw.trim();
  if (text.length > MAX_NUMBER_CHARS || !INTEGER.test(text)) fail(`<${type}> holds ${show(text)}, not an integer`);
  const value = Number(text);
  const extension = EXTENSION_INTEGERS[type];
  if (EXACT_INTEGERS.has(type)) {
    if (!Number.isSafeInteger(value)) fail(`<${type}> ${show(text)} is beyond ±2^53 and cannot be read exactly`);
  } else if (extension) {
    if (value < extension.min || value > extension.max) fail(`<${type}> ${show(text)} does not fit ${extension.what}`);
  } else if (value < I4_MIN || value > I4_MAX) {
    fail(`<${type}> ${show(text)} does not fit a 32-bit signed integer`);
  }
  return value === 0 ? 0 : value; // never -0
}

function decodeDouble(type: string, raw: string, fail: Fail): number {
  const text = raw.trim();
  if (text.length > MAX_NUMBER_CHARS || !DOUBLE.test(text)) fail(`<${type}> holds ${show(text)}, not a decimal number`);
  const value = Number(text);
  if (!Number.isFinite(value)) fail(`<${type}> ${show(text)} is out of range`);
  return value;
}

function decodeBoolean(raw: string, fail: Fail): boolean {
  const text = raw.trim();
  if (text === '1') return true;
  if (text === '0') return false;
  return fail(`<boolean> holds ${show(text)}; XML-RPC booleans are 0 or 1`);
}

function decodeDateTime(raw: string, fail: Fail): Date {
  const text = raw.trim();
  const m = DATE_TIME.exec(text);
  if (!m) return fail(`<dateTime.iso8601> holds ${show(text)}, expected e.g. 20090131T14:08:55`);
  // XML-RPC dates carry no zone; read them as UTC so every process agrees.
  const zone = m[8] === undefined || m[8] === 'Z' ? 'Z' : m[8].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${zone}`);
  if (Number.isNaN(date.getTime())) fail(`<dateTime.iso8601> ${show(text)} is not a real date`);
  return date;
}

function decodeBase64(raw: string, fail: Fail): Buffer {
  const text = raw.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) fail('<base64> holds characters or padding that are not base64');
  return Buffer.from(text, 'base64');
}

/** Converts the text of a scalar type element (one of SCALAR_TYPES). */
export function decodeScalar(type: string, text: string, fail: Fail): XmlRpcValue {
  if (DECIMALS.has(type)) return decodeDouble(type, text, fail);
  switch (type) {
    case 'string':
      return text;
    case 'int':
    case 'i4':
    case 'i8':
    case 'ex:i1':
    case 'ex:i2':
    case 'ex:i8':
    case 'ex:biginteger':
      return decodeInteger(type, text, fail);
    case 'boolean':
      return decodeBoolean(text, fail);
    case 'dateTime.iso8601':
      return decodeDateTime(text, fail);
    case 'base64':
      return decodeBase64(text, fail);
    default: // nil
      if (text.trim() !== '') fail('<nil/> must be empty');
      return null;
  }
}
