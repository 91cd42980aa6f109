// The seam holds: task names are written down in the families and the registry only, and
// every consumer reads them from there. A string literal naming a task anywhere else in
// src/ is a switch on a task name waiting to happen; this scan finds it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_FAMILIES, FAMILIES, TASK_NAMES, familyOf, familyOfAnswerKey, isTaskName } from '../../src/families/registry.ts';
import { FAMILY_SETTINGS, TASK_NAMES as LEAF_NAMES } from '../../src/tasks/names.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|sql)$/.test(e.name) ? [path] : [];
  });
}

describe('the task-family seam', () => {
  it('lists each family once, by name and by answer key', () => {
    expect(TASK_NAMES).toEqual(FAMILIES.map((f) => f.name));
    expect(new Set(ALL_FAMILIES.map((f) => f.answerKey)).size).toBe(ALL_FAMILIES.length);
    for (const f of ALL_FAMILIES) {
      expect(isTaskName(f.name)).toBe(true);
      expect(familyOf(f.name as never)).toBe(f);
      expect(familyOfAnswerKey(f.answerKey)).toBe(f);
    }
    expect(isTaskName('NOPE')).toBe(false);
    expect(familyOfAnswerKey('nope')).toBeUndefined();
  });

  it("finds the task-name leaf (src/tasks/names.ts) listing the registry's families and their settings", () => {
    expect(LEAF_NAMES).toEqual(TASK_NAMES);
    for (const f of ALL_FAMILIES)
      expect(Object.keys(f.settings ?? {}), f.name).toEqual(Object.keys((FAMILY_SETTINGS as Record<string, object>)[f.name] ?? {}));
  });

  it('has no string literal naming a task outside src/families (migrations before the registry excepted)', () => {
    const literal = new RegExp(`(['"\`])(${TASK_NAMES.join('|')})\\1`);
    // The migrations written before the registry existed listed the names in checks; they are history and never change.
    const history = /^db\/migrations\/00[1-5]_/;
    const offenders = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      // The leaf that names the families for the floors below them (the registry checks it).
      .filter((file) => !file.startsWith('families/') && !history.test(file) && file !== 'tasks/names.ts')
      .flatMap((file) =>
        readFileSync(join(SRC, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (literal.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });
});
