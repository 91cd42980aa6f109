// The error catalogue is the one list of codes: docs/api-errors.md is generated from it,
// every code in it is raised somewhere, and nothing in src raises a code outside it
// (ApiError takes only catalogue codes; the compiler holds the rest).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ERROR_CODES, errorCatalogueMarkdown } from '../../src/http/error-catalogue.ts';
import { ApiError } from '../../src/http/api-error.ts';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the error catalogue', () => {
  it('is what docs/api-errors.md lists (regenerate it with `npx tsx scripts/api-errors-doc.ts`)', () => {
    expect(readFileSync(join(root, 'docs', 'api-errors.md'), 'utf8')).toBe(errorCatalogueMarkdown());
  });

  it('gives each code an error status HTTP knows and a meaning', () => {
    for (const code of ERROR_CODES) {
      const { status, meaning } = ERROR_CATALOGUE[code];
      expect(status >= 400 && status < 600 && STATUS_CODES[status] !== undefined, code).toBe(true);
      expect(meaning.length, code).toBeGreaterThan(10);
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });

  it('has no code that nothing raises', () => {
    const src = sourceFiles(join(root, 'src'))
      .filter((f) => !f.endsWith('error-catalogue.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    // redis_unavailable and database_unavailable are built as `${part}_unavailable` (http/unavailable.ts).
    const raised = (code: string) =>
      src.includes(`'${code}'`) || (code.endsWith('_unavailable') && src.includes("'" + code.replace('_unavailable', "'")));
    expect(ERROR_CODES.filter((code) => !raised(code))).toEqual([]);
  });

  it('fixes the status of an ApiError by its code', () => {
    expect(new ApiError('closed', 'x').statusCode).toBe(409);
    expect(new ApiError('not_found', 'x').statusCode).toBe(404);
    expect(new ApiError('too_many_pending', 'x', undefined, 5)).toMatchObject({ statusCode: 429, retryAfterSeconds: 5 });
  });
});
