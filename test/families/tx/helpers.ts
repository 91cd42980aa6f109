// The TX tests' NCBI Taxonomy release: the taxdump fixture (NCBI's layout) built into an
// index file with `buildTaxonomyIndex`, loaded as the meta-server loads it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTaxonomyIndex, type TaxonomySources } from '../../../src/families/tx/build.ts';
import { loadTaxonomyIndex, type TaxonomyIndex } from '../../../src/families/tx/taxonomy.ts';

export const TAXDUMP = fileURLToPath(new URL('../../fixtures/taxonomy/', import.meta.url));
export const RELEASE = 'TEST_2024-05';

export interface BuiltIndex {
  path: string;
  index: TaxonomyIndex;
  dir: string;
  remove(): void;
}

/** Builds the fixture's index (all three files unless told otherwise) into a fresh directory. */
export async function buildFixtureIndex(sources: Partial<TaxonomySources> = {}): Promise<BuiltIndex> {
  const dir = mkdtempSync(join(tmpdir(), 'metaserver-taxonomy-'));
  const path = join(dir, 'taxonomy.idx');
  await buildTaxonomyIndex({
    nodes: join(TAXDUMP, 'nodes.dmp'),
    merged: join(TAXDUMP, 'merged.dmp'),
    delnodes: join(TAXDUMP, 'delnodes.dmp'),
    release: RELEASE,
    out: path,
    ...sources,
  });
  return { path, index: loadTaxonomyIndex(path), dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
