// Raw-body requests for the leaderboard tests: TSV uploads need their own content type,
// and TSV answers are text, which the shared harness's JSON helper does not cover.
import { expect } from 'vitest';
import type { TestMetaserver } from '../support/runtime.ts';

export const TSV_TYPE = 'text/tab-separated-values';

export interface RawAnswer {
  status: number;
  type: string;
  text: string;
  json: any;
}

export async function send(
  ms: TestMetaserver,
  method: 'GET' | 'PUT' | 'POST' | 'PATCH',
  url: string,
  opts: { body?: string | Buffer | object; type?: string; token?: string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined)
    headers['content-type'] = opts.type ?? (typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? TSV_TYPE : 'application/json');
  const payload =
    opts.body === undefined || typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
  const res = await ms.app!.inject({ method, url, payload, headers });
  const type = String(res.headers['content-type'] ?? '');
  return { status: res.statusCode, type, text: res.body, json: type.startsWith('application/json') ? res.json() : undefined };
}

/** Deep comparison where every number must agree to 1e-9 (figures are fractions). */
export function expectFigures(actual: unknown, expected: unknown, path = 'metrics'): void {
  if (typeof expected === 'number') {
    expect(typeof actual, path).toBe('number');
    expect(Math.abs((actual as number) - expected), `${path}: ${actual} vs ${expected}`).toBeLessThan(1e-9);
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    for (const [key, inner] of Object.entries(expected)) expectFigures((actual as Record<string, unknown>)?.[key], inner, `${path}.${key}`);
    return;
  }
  expect(actual, path).toEqual(expected);
}

export const tsv = (rows: string[][]) => rows.map((r) => r.join('\t')).join('\n') + '\n';

/** An INT gold of three items in two documents (d1, d2), with a run finding the first of them and one finding all three. */
export const THREE_ITEMS = {
  gold: tsv([
    ['d1', 'P37840'],
    ['d1', 'P04637'],
    ['d2', 'O14920'],
  ]),
  half: tsv([['d1', 'P37840', '1', '0.9']]),
  perfect: tsv([
    ['d1', 'P37840', '1', '0.9'],
    ['d1', 'P04637', '2', '0.8'],
    ['d2', 'O14920', '1', '0.9'],
  ]),
};
