// `metaserver taxonomy build|lookup`: building the NCBI Taxonomy release index TX answers
// are checked against, and looking ids up in it. argv is what follows `taxonomy`.

import { Command, CommanderError } from 'commander';
import { buildTaxonomyIndex, MAX_TAXID } from './build.ts';
import { loadTaxonomyIndex } from './taxonomy.ts';

export interface CommandIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const PROCESS_IO: CommandIo = { stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s) };

interface BuildOptions {
  nodes: string;
  merged?: string;
  delnodes?: string;
  release: string;
  date?: string;
  out: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

async function build(o: BuildOptions, io: CommandIo): Promise<number> {
  if (o.date !== undefined && !DATE.test(o.date)) {
    io.stderr(`error: --date ${o.date} is not YYYY-MM-DD\n`);
    return 2;
  }
  if (o.release.trim() === '') {
    io.stderr("error: --release is empty; name the taxdump release, e.g. its date as NCBI's archive names it (2024-06-01)\n");
    return 2;
  }
  const started = Date.now();
  const summary = await buildTaxonomyIndex(o);
  if (summary.skipped.count > 0) {
    io.stderr(`warning: ${summary.skipped.count} line(s) skipped (not TAB|-separated taxon ids), e.g.:\n`);
    for (const example of summary.skipped.examples) io.stderr(`  ${example}\n`);
  }
  if (summary.mergesLeftOut > 0)
    io.stderr(
      `warning: ${summary.mergesLeftOut} merge(s) left out: they lead to no current taxon, or the old id is itself a current taxon\n`,
    );
  if (summary.deletionsLeftOut > 0)
    io.stderr(`warning: ${summary.deletionsLeftOut} deleted id(s) left out: they are current taxa or merged ids\n`);
  if (summary.taxa === 0) {
    io.stderr(`error: no taxon found in ${o.nodes}; expected NCBI's nodes.dmp ("tax_id<TAB>|<TAB>parent tax_id<TAB>|<TAB>rank…")\n`);
    return 1;
  }
  io.stdout(
    `wrote ${o.out}: release ${summary.release.name}, ${summary.taxa} taxa, ${summary.merged} merged ids, ${summary.deleted} deleted ids,` +
      ` ${summary.bytes} bytes, ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

function lookup(ids: string[], o: { index: string }, io: CommandIo): number {
  const index = loadTaxonomyIndex(o.index);
  let allCurrent = true;
  for (const raw of ids) {
    const id = Number(raw);
    if (!/^[1-9][0-9]*$/.test(raw) || id > MAX_TAXID) {
      io.stdout(`${raw}\tinvalid\tnot a taxon id (a positive integer)\n`);
      allCurrent = false;
      continue;
    }
    const found = index.lookup(id);
    if (found.status !== 'current') allCurrent = false;
    io.stdout(`${raw}\t${found.status}${found.status === 'merged' ? `\t${found.into}` : ''}\n`);
  }
  io.stderr(`(NCBI Taxonomy release ${index.release.name})\n`);
  return allCurrent ? 0 : 1;
}

/** Runs `taxonomy <subcommand> …`; resolves to the exit code (0 ok, 1 failure / not all current, 2 usage). */
export async function runTaxonomyCommand(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  let code = 0;
  const program = new Command('metaserver taxonomy')
    .description('build and query the NCBI Taxonomy release index used to check TX answers')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  program
    .command('build')
    .description("build an index file from NCBI Taxonomy's taxdump (nodes.dmp, and optionally merged.dmp and delnodes.dmp; gzip accepted)")
    .requiredOption('--nodes <file>', 'nodes.dmp: the current taxa')
    .option('--merged <file>', 'merged.dmp: ids merged into another taxon')
    .option('--delnodes <file>', 'delnodes.dmp: deleted ids')
    .requiredOption(
      '--release <name>',
      "the release's name, shown in warnings and /healthz (the taxdump holds no version: name it, e.g. 2024-06-01 for taxdmp_2024-06-01)",
    )
    .option('--date <YYYY-MM-DD>', "the release's date, when known")
    .requiredOption('--out <file>', 'index file to write')
    .action(async (o: BuildOptions) => {
      code = await build(o, io);
    });
  program
    .command('lookup')
    .description('look taxon ids up: prints current, merged (with the current taxon), deleted, unknown or invalid')
    .requiredOption('--index <file>', 'index file written by "taxonomy build"')
    .argument('<taxids...>', 'taxon ids to look up')
    .action((ids: string[], o: { index: string }) => {
      code = lookup(ids, o, io);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    io.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
