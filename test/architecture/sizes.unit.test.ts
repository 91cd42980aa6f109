// The house stays livable as it grows: every function fits on a screen or two, a routes file
// lists routes (its schemas and handlers stand beside it), and the application context,
// which holds everything, reaches only the composition root. Each route plugin names the
// few things it needs instead (ServerRouteDeps, ArticleRouteDeps, …), built in app-routes.ts.
// scripts/code-sizes.ts prints the same measures.
import { describe, expect, it } from 'vitest';
import { lineCount, longestFunctions, outermostFunctions } from './function-sizes.ts';
import { importsOf, sourceFiles } from './source-files.ts';

const FILES = sourceFiles();
const MAX_FUNCTION_LINES = 100;
const MAX_ROUTES_FILE_LINES = 300;
/** The composition root: what builds the context (runtime.ts) and what hands its parts out (app.ts, app-routes.ts). */
const CONTEXT_READERS = ['src/app-routes.ts', 'src/app.ts', 'src/runtime.ts'];
const isRoutesFile = (path: string) => /(^|\/|-)routes\.ts$/.test(path);

describe('sizes', () => {
  it('measures outermost functions as a reader meets them (nested ones count in their outer one)', () => {
    const text = [
      'export function outer() {', //  1
      '  const inner = () => {', //     2
      '    return 1;', //               3
      '  };', //                        4
      '  return inner();', //           5
      '}', //                           6
      'class Box {', //                 7
      '  readonly get = async () => 2;', // 8
      '  size() {', //                  9
      '    return 3;', //              10
      '  }', //                        11
      '}', //                          12
    ].join('\n');
    const found = outermostFunctions({ path: 'x.ts', text }).map((f) => `${f.name}:${f.line}:${f.lines}`);
    expect(found.sort()).toEqual(['Box.get:8:1', 'Box.size:9:3', 'outer:1:6']);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });

  it(`has no outermost function in src/ over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = longestFunctions(FILES)
      .filter((f) => f.lines > MAX_FUNCTION_LINES)
      .map((f) => `${f.path}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(long, 'split it into named steps (see src/dispatch/annotators/http-exchange for the shape)').toEqual([]);
  });

  it(`has no routes file over ${MAX_ROUTES_FILE_LINES} lines`, () => {
    const routes = FILES.filter((f) => isRoutesFile(f.path));
    expect(routes.length).toBeGreaterThan(10);
    const long = routes.filter((f) => lineCount(f.text) > MAX_ROUTES_FILE_LINES).map((f) => `${f.path} (${lineCount(f.text)} lines)`);
    expect(long, 'move its schemas to route-schemas.ts and its handlers to route-handlers.ts beside it').toEqual([]);
  });
});

describe('the application context', () => {
  it('is imported by the composition root only', () => {
    const importers = FILES.filter((f) => importsOf(f).some((i) => i.target === 'src/app-context.ts')).map((f) => f.path);
    expect(importers.sort(), 'give the plugin or service an interface of the few parts it needs, built in app-routes.ts').toEqual(
      CONTEXT_READERS,
    );
  });
});
