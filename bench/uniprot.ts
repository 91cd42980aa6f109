// Benchmark of the UniProt release index: build, file size, load and lookup speed at
// 1M–250M accessions, against a Set<string> baseline where a Set can hold them.
//
//   node --import tsx bench/uniprot.ts                 # 1M, 10M, 50M, 250M
//   UNIPROT_BENCH_SIZES=1e6,1e7 node --import tsx bench/uniprot.ts
//
// The big builds generate accession codes directly as integers (seeded, 30% 6-character
// and 70% 10-character, like TrEMBL), skipping text parsing; the "from text" row times
// the real path (a text file through buildIndex) at 1M. Sizes that do not fit in memory
// are skipped and extrapolated: file bytes ≈ 4·n + 4·2^ceil(log2(n/8)) + header.

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildIndex } from '../src/uniprot/build.ts';
import { CODE_LIMIT, decodeAccession, SIX_CHARACTER_CODES, TEN_BASE } from '../src/uniprot/codec.ts';
import { writeIndexFile } from '../src/uniprot/index-file.ts';
import { loadUniprotIndex } from '../src/uniprot/index.ts';
import { scrambleCode } from '../src/uniprot/keys.ts';
import { buildPrimaryTables } from '../src/uniprot/tables.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SIZES = (process.env.UNIPROT_BENCH_SIZES ?? '1e6,1e7,5e7,2.5e8').split(',').map(Number);
const PROBES = 1_000_000;
const SET_LIMIT = 2 ** 24 - 1; // a V8 Set holds at most ~16.7M entries

function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function randomCode(random: () => number): number {
  if (random() < 0.3) return Math.floor(random() * SIX_CHARACTER_CODES);
  const fine = random() + random() / 2 ** 32; // 52 bits of randomness for the 45-bit range
  return Math.min(CODE_LIMIT - 1, TEN_BASE + Math.floor(fine * (CODE_LIMIT - TEN_BASE)));
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);
const millions = (n: number): string => `${(n / 1e6).toFixed(1)}M`;

/**
 * Lookups per second over `probes`, best of five rounds (the first ones warm the JIT up).
 * Counted per second of this process's CPU time, not wall time: the bench machine is
 * shared, and "per core" is what the figure is meant to say.
 */
function rate(probes: string[], lookup: (acc: string) => boolean): number {
  let best = 0;
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    let found = 0;
    for (const acc of probes) if (lookup(acc)) found++;
    const used = process.cpuUsage(before);
    if (found < 0) console.log(found); // keep the loop from being optimised away
    best = Math.max(best, probes.length / ((used.user + used.system) / 1e6));
  }
  return best;
}

const dir = mkdtempSync(join(tmpdir(), 'uniprot-bench-'));
const rows: string[] = [];
console.log(`machine: ${cpus()[0].model}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);

try {
  for (const n of SIZES) {
    // keys (8 B) + remainders (4 B) + a copy while loading (4.3 B) per accession, with room to spare.
    if (n * 20 > freemem()) {
      console.log(`${millions(n)}: skipped, needs ~${((n * 20) / 2 ** 30).toFixed(1)} GiB free`);
      continue;
    }
    const random = generator(n);
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
    const hits = hitCodes.map(decodeAccession);
    const misses = Array.from({ length: PROBES }, () => decodeAccession(randomCode(random)));
    const hitRate = rate(hits, (acc) => index.lookup(acc).status === 'primary');
    const missRate = rate(misses, (acc) => index.lookup(acc).status === 'primary');
    // A validation run asks for the same few thousand accessions again and again.
    const hot = Array.from({ length: PROBES }, (_, i) => hits[i % 4096]);
    const hotRate = rate(hot, (acc) => index.lookup(acc).status === 'primary');
    rows.push(
      `| ${millions(count)} | index | ${(bytes / count).toFixed(2)} | ${seconds(tablesMs + writeMs)} (+${seconds(generateMs)} generating) | ${seconds(loadMs)} | ${millions(hitRate)} | ${millions(missRate)} | ${millions(hotRate)} |`,
    );
    console.log(rows.at(-1));
    rmSync(path);

    if (n <= SET_LIMIT) {
      // The baseline: every accession as a string in a Set.
      const regenerate = generator(n);
      gc();
      const before = process.memoryUsage().heapUsed;
      started = performance.now();
      const set = new Set<string>();
      for (let i = 0; i < n; i++) set.add(decodeAccession(randomCode(regenerate)));
      const setMs = performance.now() - started;
      gc();
      const setBytes = process.memoryUsage().heapUsed - before;
      const setHits = rate(hits, (acc) => set.has(acc));
      const setMisses = rate(misses, (acc) => set.has(acc));
      const setHot = rate(hot, (acc) => set.has(acc));
      rows.push(
        `| ${millions(set.size)} | Set<string> | ${(setBytes / set.size).toFixed(1)} (heap) | ${seconds(setMs)} | — | ${millions(setHits)} | ${millions(setMisses)} | ${millions(setHot)} |`,
      );
      console.log(rows.at(-1));
      set.clear();
    }
  }

  // The real build path: a text file of accessions, parsed, built, written.
  const textCount = Math.min(1_000_000, Math.max(...SIZES));
  const random = generator(99);
  const lines: string[] = [];
  for (let i = 0; i < textCount; i++) lines.push(decodeAccession(randomCode(random)));
  const text = join(dir, 'primaries.txt');
  writeFileSync(text, lines.join('\n') + '\n');
  const summary = await buildIndex({ primaries: text, out: join(dir, 'from-text.bin'), release: { name: 'BENCH' } });
  rows.push(`| ${millions(summary.primaries)} | index, from a text file | ${(summary.bytes / summary.primaries).toFixed(2)} | ${seconds(summary.ms)} | — | — | — | — |`);
  console.log(rows.at(-1));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log('\n| accessions | structure | bytes/accession | build s | load s | hits/s | misses/s | hot hits/s |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
