// The `*.unit.test.ts` files run one after another in a shared process with a shared module
// cache (vitest.config.ts, project `unit`): a file there that starts a service, a process or
// a CLI, spies on a module, or changes the process (its environment, its handlers, its
// streams) could change what the next file sees. Such a file is an ordinary `*.test.ts`.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** What a shared process must not be given, and why each is named. */
const FORBIDDEN: { what: string; pattern: RegExp }[] = [
  { what: 'starts the meta-server or a database (test/support/runtime.ts)', pattern: /support\/runtime/ },
  { what: 'runs a CLI command in this process', pattern: /src\/cli\/|score-cli/ },
  { what: 'starts a child process', pattern: /child_process|\bspawn\(|\bexecFile\(/ },
  { what: 'mocks, spies or fakes timers (vi)', pattern: /\bvi\b/ },
  { what: 'talks to Redis', pattern: /ioredis|bullmq|redis-server/i },
  { what: 'opens PGlite or PostgreSQL', pattern: /pglite|src\/db\/(open|postgres)/i },
  { what: 'changes the environment', pattern: /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/ },
  { what: 'adds process handlers or writes its streams', pattern: /process\.(on|once|stdout|stderr|exit|chdir)\b/ },
  { what: 'listens on a port', pattern: /\.listen\(/ },
];

const root = new URL('../..', import.meta.url).pathname;
const files = readdirSync(`${root}test`, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.unit.test.ts'))
  .map((f) => `test/${f}`)
  .sort();

describe('the tests that share a process', () => {
  it('are found (the glob is the one vitest.config.ts runs)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('test/architecture/unit-tests.unit.test.ts');
  });

  it('start nothing and change nothing in the process', () => {
    const broken: string[] = [];
    for (const file of files) {
      if (file === 'test/architecture/unit-tests.unit.test.ts') continue;
      const text = readFileSync(`${root}${file}`, 'utf8');
      for (const { what, pattern } of FORBIDDEN) if (pattern.test(text)) broken.push(`${file}: ${what}`);
    }
    expect(broken).toEqual([]);
  });

  it('would catch a file that starts the meta-server or spies', () => {
    const caught = (text: string) => FORBIDDEN.filter((f) => f.pattern.test(text)).map((f) => f.what);
    expect(caught(`import { startTestMetaserver } from '../support/runtime.ts';`)).toHaveLength(1);
    expect(caught(`vi.spyOn(console, 'log');`)).toHaveLength(1);
    expect(caught(`process.env.METASERVER_X = '1';`)).toHaveLength(1);
    expect(caught(`if (process.env.DATABASE_URL === undefined) return;`)).toEqual([]);
  });
});
