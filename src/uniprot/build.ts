// Building an index file from a release's files: stream the primaries into a growing
// array of scrambled keys, bucket them (tables.ts), read and resolve the secondaries,
// write the file. Memory peaks at ~12 bytes per primary (keys + remainders).

import { statSync } from 'node:fs';
import { scrambleCode, KEY_BITS } from './keys.ts';
import { writeIndexFile, type ReleaseInfo } from './index-file.ts';
import { readPrimaryCodes, readSecondaryPairs, type SkippedLines } from './sources.ts';
import { buildPrimaryTables, hasKey, type PrimaryTables, type SecondaryTables } from './tables.ts';

export interface BuildOptions {
  primaries: string;
  secondary?: string;
  out: string;
  release: ReleaseInfo;
}

export interface BuildProgress {
  phase: 'primaries' | 'tables' | 'secondaries' | 'write';
  /** Accessions (or pairs) read so far in this phase. */
  count: number;
}

export interface BuildSummary {
  primaries: number;
  duplicatePrimaries: number;
  skippedPrimaryLines: SkippedLines;
  secondaries: number;
  /** Secondaries dropped because none of their primaries is in the release. */
  orphanSecondaries: number;
  skippedSecondaryLines: SkippedLines;
  bytes: number;
  ms: number;
}

/** A Float64Array that doubles as it fills. */
class GrowingFloat64 {
  data = new Float64Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
}

const PROGRESS_EVERY = 1_000_000;

/**
 * Groups (secondary, primary) code pairs into the secondary tables, keeping only pairs
 * whose primary is in the release, so a lookup never maps to an accession it would then
 * call unknown.
 */
export function buildSecondaryTables(
  secondaries: Float64Array,
  primaries: Float64Array,
  isPrimary: (code: number) => boolean,
): SecondaryTables & { orphans: number } {
  const order = Array.from({ length: secondaries.length }, (_, i) => i);
  order.sort((i, j) => secondaries[i] - secondaries[j] || primaries[i] - primaries[j]);
  const codes: number[] = [];
  const starts: number[] = [0];
  const targets: number[] = [];
  let orphans = 0;
  for (let k = 0; k < order.length;) {
    const secondary = secondaries[order[k]];
    const before = targets.length;
    for (; k < order.length && secondaries[order[k]] === secondary; k++) {
      const primary = primaries[order[k]];
      const repeated = targets.length > before && targets[targets.length - 1] === primary;
      if (!repeated && isPrimary(primary)) targets.push(primary);
    }
    if (targets.length === before) {
      orphans++;
      continue;
    }
    codes.push(secondary);
    starts.push(targets.length);
  }
  return {
    codes: Float64Array.from(codes),
    starts: Uint32Array.from(starts),
    targets: Float64Array.from(targets),
    orphans,
  };
}

export async function buildIndex(options: BuildOptions, onProgress?: (progress: BuildProgress) => void): Promise<BuildSummary> {
  const started = performance.now();
  const keys = new GrowingFloat64();
  const skippedPrimaryLines = await readPrimaryCodes(options.primaries, (code) => {
    keys.push(scrambleCode(code));
    if (onProgress && keys.length % PROGRESS_EVERY === 0) onProgress({ phase: 'primaries', count: keys.length });
  });
  onProgress?.({ phase: 'tables', count: keys.length });
  const built = buildPrimaryTables(keys.data, keys.length);
  keys.data = new Float64Array(0); // let the keys go before the secondaries are read
  const primaries: PrimaryTables = built;
  const scale = 2 ** (KEY_BITS - primaries.bucketBits);

  let secondaries: SecondaryTables = { codes: new Float64Array(0), starts: new Uint32Array([0]), targets: new Float64Array(0) };
  let orphanSecondaries = 0;
  let skippedSecondaryLines: SkippedLines = { count: 0, examples: [] };
  if (options.secondary) {
    const secondaryCodes = new GrowingFloat64();
    const primaryCodes = new GrowingFloat64();
    skippedSecondaryLines = await readSecondaryPairs(options.secondary, (s, p) => {
      secondaryCodes.push(s);
      primaryCodes.push(p);
      if (onProgress && secondaryCodes.length % PROGRESS_EVERY === 0) onProgress({ phase: 'secondaries', count: secondaryCodes.length });
    });
    const grouped = buildSecondaryTables(
      secondaryCodes.data.subarray(0, secondaryCodes.length),
      primaryCodes.data.subarray(0, primaryCodes.length),
      (code) => hasKey(primaries, scrambleCode(code), scale),
    );
    orphanSecondaries = grouped.orphans;
    secondaries = grouped;
  }
  onProgress?.({ phase: 'write', count: primaries.remainders.length });
  writeIndexFile(options.out, { release: options.release, primaries, secondaries });
  return {
    primaries: primaries.remainders.length,
    duplicatePrimaries: built.duplicates,
    skippedPrimaryLines,
    secondaries: secondaries.codes.length,
    orphanSecondaries,
    skippedSecondaryLines,
    bytes: statSync(options.out).size,
    ms: Math.round(performance.now() - started),
  };
}
