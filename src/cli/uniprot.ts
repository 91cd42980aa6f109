// `metaserver uniprot build|lookup`: building a release index from UniProt's files and
// looking accessions up in it. argv is what follows `uniprot` on the command line.

import { Command, CommanderError } from 'commander';
import { buildIndex, type BuildProgress } from '../uniprot/build.ts';
import { loadUniprotIndex } from '../uniprot/index.ts';
import { explainAccession } from '../uniprot/pattern.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function progressLine(progress: BuildProgress): string {
  const count = progress.count.toLocaleString('en-US');
  switch (progress.phase) {
    case 'primaries':
      return `read ${count} primary accessions`;
    case 'tables':
      return `sorting ${count} primary accessions`;
    case 'secondaries':
      return `read ${count} secondary pairs`;
    case 'write':
      return `writing ${count} primary accessions`;
  }
}

function printSkipped(what: string, skipped: { count: number; examples: string[] }): void {
  if (skipped.count === 0) return;
  process.stderr.write(`warning: ${skipped.count} ${what} line(s) skipped (not an accession), e.g.:\n`);
  for (const example of skipped.examples) process.stderr.write(`  ${example}\n`);
}

async function build(options: { primaries: string; secondary?: string; release: string; date?: string; out: string }): Promise<number> {
  if (options.date !== undefined && !DATE.test(options.date)) {
    process.stderr.write(`error: --date ${options.date} is not YYYY-MM-DD\n`);
    return 2;
  }
  const started = Date.now();
  const summary = await buildIndex(
    {
      primaries: options.primaries,
      secondary: options.secondary,
      out: options.out,
      release: { name: options.release, ...(options.date ? { date: options.date } : {}) },
    },
    (progress) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${progressLine(progress)}\n`),
  );
  printSkipped('primaries', summary.skippedPrimaryLines);
  printSkipped('sec_ac', summary.skippedSecondaryLines);
  if (summary.orphanSecondaries > 0) {
    process.stderr.write(
      `warning: ${summary.orphanSecondaries} secondary accession(s) dropped: none of their primaries is in the primaries file\n`,
    );
  }
  if (summary.primaries === 0) {
    process.stderr.write(
      `error: no primary accession found in ${options.primaries}; expected one accession per line or FASTA headers (>sp|P12345|…)\n`,
    );
    return 1;
  }
  const perAccession = (summary.bytes / summary.primaries).toFixed(2);
  process.stdout.write(
    `wrote ${options.out}: release ${options.release}, ${summary.primaries} primary accessions` +
      ` (${summary.duplicatePrimaries} duplicates removed), ${summary.secondaries} secondary accessions,` +
      ` ${summary.bytes} bytes (${perAccession} per primary), ${(summary.ms / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

function lookup(accessions: string[], options: { index: string }): number {
  const index = loadUniprotIndex(options.index);
  let allPrimary = true;
  for (const accession of accessions) {
    const problem = explainAccession(accession);
    if (problem) {
      process.stdout.write(`${accession}\tinvalid\t${problem}\n`);
      allPrimary = false;
      continue;
    }
    const found = index.lookup(accession);
    if (found.status !== 'primary') allPrimary = false;
    const detail = found.status === 'secondary' ? `\t${found.primaries.join(',')}` : '';
    process.stdout.write(`${accession}\t${found.status}${detail}\n`);
  }
  process.stderr.write(`(UniProt release ${index.release.name}${index.release.date ? ` of ${index.release.date}` : ''})\n`);
  return allPrimary ? 0 : 1;
}

/** Runs `uniprot <subcommand> …`; resolves to the exit code (0 ok, 1 failure/not all primary, 2 usage). */
export async function runUniprotCommand(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command('metaserver uniprot')
    .description('build and query the UniProt release index used to check accessions')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  program
    .command('build')
    .description('build an index file from a list of primary accessions (plain, FASTA, gzip) and optionally sec_ac.txt')
    .requiredOption('--primaries <file>', 'primary accessions: one per line, or FASTA (>sp|P12345|…); gzip accepted')
    .option('--secondary <file>', "UniProt's sec_ac.txt (secondary → primary accessions)")
    .requiredOption('--release <name>', 'release name, e.g. 2024_01')
    .option('--date <YYYY-MM-DD>', 'release date')
    .requiredOption('--out <file>', 'index file to write')
    .action(async (options: { primaries: string; secondary?: string; release: string; date?: string; out: string }) => {
      code = await build(options);
    });
  program
    .command('lookup')
    .description('look accessions up: prints primary, secondary (with its primaries), unknown or invalid')
    .requiredOption('--index <file>', 'index file written by "uniprot build"')
    .argument('<accessions...>', 'accessions to look up')
    .action((accessions: string[], options: { index: string }) => {
      code = lookup(accessions, options);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander but successes to the user.
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
