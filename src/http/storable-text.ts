// Every string a request brings in — path and query parameters, JSON bodies, TSV uploads —
// is checked once, at the edge, for the two things that cannot be stored as sent: NUL
// (PostgreSQL text refuses U+0000, so it used to end in a 500) and lone UTF-16 surrogates
// (not Unicode at all; the database driver would store U+FFFD in their place and the
// text would silently differ from what was sent). Either is a 400 that names the field.
// Article texts are the one exception for NUL: a NUL there is one of the characters XML
// cannot carry, which become spaces one for one like the others (articles/input.ts), so an
// article converted from a PDF with a stray NUL keeps its offsets. Routes name those fields
// in their config (`articleTextFields`).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Body fields holding article text: NUL is allowed there (it is sent as a space). */
    articleTextFields?: readonly string[];
  }
}

/** What is wrong with a string, or null: the first NUL (unless allowed) or lone surrogate, with its position. */
function unstorableChar(s: string, nulAllowed = false): { index: number; what: string } | null {
  const nul = nulAllowed ? -1 : s.indexOf('\u0000');
  const wellFormed = s.isWellFormed();
  if (nul < 0 && wellFormed) return null;
  let lone = -1;
  if (!wellFormed) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0xd800 || c > 0xdfff) continue;
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      lone = i;
      break;
    }
  }
  if (nul >= 0 && (lone < 0 || nul < lone)) return { index: nul, what: 'a NUL character (U+0000), which cannot be stored; remove it' };
  const unit = s.charCodeAt(lone).toString(16).toUpperCase();
  return { index: lone, what: `a lone surrogate (U+${unit}), which is not a Unicode character; send the text as valid UTF-8` };
}

/** "line 3, column 7" of a UTF-16 index, for text bodies (columns count code points from 1). */
function lineAndColumn(s: string, index: number): string {
  const before = s.slice(0, index);
  const line = before.split('\n').length;
  const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
  return `line ${line}, column ${column}`;
}

/**
 * The first unstorable string in a parsed value (keys too), named like validation errors:
 * body/articles/0/text. Iterative: a body may nest arrays 100,000 deep.
 */
function findIn(root: unknown, where: string, textFields: readonly string[] = []): string | null {
  const stack: Array<{ value: unknown; path: string; key?: string }> = [{ value: root, path: '' }];
  while (stack.length > 0) {
    const { value, path, key: field } = stack.pop()!;
    if (typeof value === 'string') {
      const bad = unstorableChar(value, field !== undefined && textFields.includes(field));
      if (bad) return `${where}${path} contains ${bad.what}`;
      continue;
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) continue;
    const entries: ReadonlyArray<readonly [string, unknown]> = Array.isArray(value)
      ? (value as unknown[]).map((item, i) => [String(i), item] as const)
      : Object.entries(value);
    // Pushed in reverse, so the first problem in document order is found first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      if (!Array.isArray(value)) {
        const badKey = unstorableChar(key);
        if (badKey) return `${where}${path} has a key that contains ${badKey.what}`;
      }
      stack.push({ value: item, path: `${path}/${key}`, key });
    }
  }
  return null;
}

/** XML bodies (XML-RPC) are left to the XML parser: XML cannot carry either, and its callers expect a fault. */
const isXml = (contentType: string | undefined): boolean => /[/+]xml\b/i.test(contentType ?? '');

function unstorableInput(
  request: Pick<FastifyRequest, 'params' | 'query' | 'body' | 'headers'>,
  textFields: readonly string[] = [],
): string | null {
  const body = isXml(request.headers['content-type']) ? undefined : request.body;
  if (typeof body === 'string') {
    const bad = unstorableChar(body);
    if (bad) return `body ${lineAndColumn(body, bad.index)} contains ${bad.what}`;
  }
  return (
    findIn(request.params, 'params') ??
    findIn(request.query, 'querystring') ??
    (typeof body === 'string' ? null : findIn(body, 'body', textFields))
  );
}

/** Before any route's validation: the whole app, whatever the content type. */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem = unstorableInput(request, request.routeOptions.config.articleTextFields);
    if (problem) throw new ApiError('invalid_text', problem);
  });
}
