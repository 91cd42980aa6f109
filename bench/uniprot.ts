// Benchmark of the UniProt release index: build, file size, load and lookup speed at
// 1M–250M accessions, against a Set<string> baseline where a Set can hold them.
//
//   node --import tsx bench/uniprot.ts                 # 1M, 10M, 50M, 250M
//   UNIPROT_BENCH_SIZES=1e6,1e7 node --import tsx bench/uniprot.ts
//
// The big builds generate accession codes directly as integers (seeded, 30% 6-character
// and 70% 10-character, like TrEMBL), skipping text parsing; the "from text" row times
// the real path (a text file through buildIndex) at 1M. Lookups are timed one at a time
// (`lookup`) and in answer-sized batches (`lookupMany`, as validation calls it). Sizes that do not fit in memory
// are skipped and extrapolated: file bytes ≈ 4·n + 4·2^ceil(log2(n/8)) + header.

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildIndex } from '../src/uniprot/build.ts';
import { CODE_LIMIT, decodeAccession, SIX_CHARACTER_CODES, TEN_BASE } from '../src/uniprot/codec.ts';
import { writeIndexFile } from '../src/uniprot/index-file.ts';
import { loadUniprotIndex, type UniprotIndex } from '../src/uniprot/index.ts';
import { scrambleCode } from '../src/uniprot/keys.ts';
import { buildPrimaryTables } from '../src/uniprot/tables.ts';
import { mulberry32 } from '../src/shared/prng.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SIZES = (process.env.UNIPROT_BENCH_SIZES ?? '1e6,1e7,5e7,2.5e8').split(',').map(Number);
const PROBES = 1_000_000;
const SET_LIMIT = 2 ** 24 - 1; // a V8 Set holds at most ~16.7M entries

function randomCode(random: () => number): number {
  if (random() < 0.3) return Math.floor(random() * SIX_CHARACTER_CODES);
  const fine = random() + random() / 2 ** 32; // 52 bits of randomness for the 45-bit range
  return Math.min(CODE_LIMIT - 1, TEN_BASE + Math.floor(fine * (CODE_LIMIT - TEN_BASE)));
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);
const millions = (n: number): string => `${(n / 1e6).toFixed(1)}M`;

interface Rate {
  /** Per second of this process's CPU time (one core). */
  cpu: number;
  /** Per second of wall-clock time, same rounds. */
  wall: number;
}

/**
 * Lookups per second over `probes`, best of five rounds (the first ones warm the JIT up).
 * Counted per second of this process's CPU time, the headline figure (the bench machine
 * is shared, and "per core" is what the figure is meant to say), and per second of wall
 * time on the same rounds. `count` runs the lookups and returns how many were primary.
 */
function rate(probes: number, count: () => number): Rate {
  let cpu = 0;
  let wall = 0;
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    const started = performance.now();
    const found = count();
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(before);
    if (found < 0) console.log(found); // keep the work from being optimised away
    cpu = Math.max(cpu, probes / ((used.user + used.system) / 1e6));
    wall = Math.max(wall, probes / (wallMs / 1e3));
  }
  return { cpu, wall };
}

/** One lookup at a time, as `lookup` callers do. */
function single(probes: string[], lookup: (acc: string) => boolean): Rate {
  return rate(probes.length, () => {
    let found = 0;
    for (const acc of probes) if (lookup(acc)) found++;
    return found;
  });
}

/** Validation's batches: one `lookupMany` call per answer of BATCH accessions. */
const BATCH = 500;
function batched(probes: string[], index: UniprotIndex): Rate {
  const batches: string[][] = [];
  for (let i = 0; i < probes.length; i += BATCH) batches.push(probes.slice(i, i + BATCH));
  return rate(probes.length, () => {
    let found = 0;
    for (const batch of batches) for (const result of index.lookupMany(batch)) if (result.status === 'primary') found++;
    return found;
  });
}

/**
 * Probe strings as validation gets them: cut out of a larger text by the parser (flat
 * strings), not the concatenations decodeAccession builds.
 */
const asParsed = (accessions: string[]): string[] => accessions.join('\n').split('\n');

const cell = (r: Rate): string => `${millions(r.cpu)} (${millions(r.wall)})`;

const dir = mkdtempSync(join(tmpdir(), 'uniprot-bench-'));
const rows: string[] = [];
console.log(
  `machine: ${cpus()[0].model}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);

try {
  for (const n of SIZES) {
    // keys (8 B) + remainders (4 B) + a copy while loading (4.3 B) per accession, with room to spare.
    if (n * 20 > freemem()) {
      console.log(`${millions(n)}: skipped, needs ~${((n * 20) / 2 ** 30).toFixed(1)} GiB free`);
      continue;
    }
    const random = mulberry32(n);
    const hitCodes: number[] = [];
    let started = performance.now();
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const code = randomCode(random);
      if (i % Math.floor(n / PROBES) === 0 && hitCodes.length < PROBES) hitCodes.push(code);
      keys[i] = scrambleCode(code);
    }
    const generateMs = performance.now() - started;
    started = performance.now();
    const primaries = buildPrimaryTables(keys, n);
    const tablesMs = performance.now() - started;
    const path = join(dir, `index-${n}.bin`);
    started = performance.now();
    writeIndexFile(path, {
      release: { name: 'BENCH' },
      primaries,
      secondaries: { codes: new Float64Array(0), starts: new Uint32Array([0]), targets: new Float64Array(0) },
    });
    const writeMs = performance.now() - started;
    const count = primaries.remainders.length;
    gc();
    started = performance.now();
    const index = loadUniprotIndex(path);
    const loadMs = performance.now() - started;
    const bytes = statSync(path).size;
    const hits = asParsed(hitCodes.map(decodeAccession));
    const misses = asParsed(Array.from({ length: PROBES }, () => decodeAccession(randomCode(random))));
    // A validation run asks for the same few thousand accessions again and again.
    const hot = asParsed(Array.from({ length: PROBES }, (_, i) => hits[i % 4096]));
    const isPrimary = (acc: string): boolean => index.lookup(acc).status === 'primary';
    const rates = [
      single(hits, isPrimary),
      single(misses, isPrimary),
      single(hot, isPrimary),
      batched(hits, index),
      batched(misses, index),
      batched(hot, index),
    ];
    rows.push(
      `| ${millions(count)} | index | ${(bytes / count).toFixed(2)} | ${seconds(tablesMs + writeMs)} (+${seconds(generateMs)} generating) | ${seconds(loadMs)} | ${rates.map(cell).join(' | ')} |`,
    );
    console.log(rows.at(-1));
    rmSync(path);

    if (n <= SET_LIMIT) {
      // The baseline: every accession as a string in a Set.
      const regenerate = mulberry32(n);
      gc();
      const before = process.memoryUsage().heapUsed;
      started = performance.now();
      const set = new Set<string>();
      for (let i = 0; i < n; i++) set.add(decodeAccession(randomCode(regenerate)));
      const setMs = performance.now() - started;
      gc();
      const setBytes = process.memoryUsage().heapUsed - before;
      const has = (acc: string): boolean => set.has(acc);
      const setRates = [single(hits, has), single(misses, has), single(hot, has)];
      rows.push(
        `| ${millions(set.size)} | Set<string> | ${(setBytes / set.size).toFixed(1)} (heap) | ${seconds(setMs)} | — | ${setRates.map(cell).join(' | ')} | — | — | — |`,
      );
      console.log(rows.at(-1));
      set.clear();
    }
  }

  // The real build path: a text file of accessions, parsed, built, written.
  const textCount = Math.min(1_000_000, Math.max(...SIZES));
  const random = mulberry32(99);
  const lines: string[] = [];
  for (let i = 0; i < textCount; i++) lines.push(decodeAccession(randomCode(random)));
  const text = join(dir, 'primaries.txt');
  writeFileSync(text, lines.join('\n') + '\n');
  const summary = await buildIndex({ primaries: text, out: join(dir, 'from-text.bin'), release: { name: 'BENCH' } });
  rows.push(
    `| ${millions(summary.primaries)} | index, from a text file | ${(summary.bytes / summary.primaries).toFixed(2)} | ${seconds(summary.ms)} | — | — | — | — | — | — | — |`,
  );
  console.log(rows.at(-1));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nlookups per CPU second (per wall-clock second), millions; load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
console.log(
  '| accessions | structure | bytes/accession | build s | load s | hits/s | misses/s | hot hits/s | batched hits/s | batched misses/s | batched hot/s |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
