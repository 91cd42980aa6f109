// Test helpers: a small in-memory release and a context builder.
import type { AccessionLookup } from '../../src/uniprot/index.ts';
import type { ValidationContext } from '../../src/families/validate.ts';

export function fakeRelease(primaries: string[], secondaries: Record<string, string[]> = {}, name = 'TEST_2024'): AccessionLookup {
  const known = new Map(primaries.map((p) => [p, true]));
  return {
    release: { name, primaries: primaries.length, secondaries: Object.keys(secondaries).length },
    lookup(acc) {
      if (known.has(acc)) return { status: 'primary' };
      const targets = secondaries[acc];
      return targets ? { status: 'secondary', primaries: targets } : { status: 'unknown' };
    },
  };
}

export function context(overrides: Partial<ValidationContext> = {}): ValidationContext {
  return { tasks: ['ACT', 'INT', 'IPT', 'MENTION', 'COREF'], text: '', accessions: null, ...overrides };
}

/** "path: message" lines, the form the team sees. */
export function issues(list: { path: string; message: string }[]): string[] {
  return list.map((issue) => `${issue.path}: ${issue.message}`);
}
