// `metaserver import --challenge SLUG [--url U] [--token T] [--batch N] [--skip-bad] PATH…`:
// loads articles into a challenge through the HTTP API of a running meta-server, in
// batches. PATH is a directory (its files) or a file: plain text, JATS/NXML, BioC XML or
// JSON (or JSON lines), PubTator text, a PMC Open Access `.tar.gz` package, or PubMed /
// MEDLINE XML (`.xml.gz`, or `.xml` whose root is PubmedArticleSet or MedlineCitationSet:
// one article per citation, its id the PMID, streamed in two passes, import-pubmed.ts)
// (import-files.ts says how each is told apart; corpus documents keep their format and
// sections). The organiser id of a plain-text file is its name without the extension; of
// a corpus document, the document's id; of a JATS article, the PMCID it names, else its
// PMID, else its file name (in a package: the PMCID, else its PMC folder, else the PMID);
// the summary counts the ids per source and lists those taken from a file name. A file
// named in no way import reads is refused, and skipped (listed on stderr and in the
// summary's `skipped`) when a directory holds it; so are bytes that are not text, or not
// in the encoding the file declares (formats/text-decoding.ts).
// Every file and document is read and checked before anything is sent: by default one bad
// document refuses the import and nothing is sent (each failure is listed: file, document,
// reason); with --skip-bad the good ones are loaded and the bad ones listed. Loading is
// idempotent on the server side (the same id with the same text changes nothing), so an
// interrupted import can simply be run again.
// Progress goes to stderr: a bar on a terminal, plain lines otherwise (logs, CI).
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ApiCallError, apiTarget, callApi } from './api-client.ts';
import {
  idReport,
  importFiles,
  readImportFiles,
  type IdSource,
  type ImportFailure,
  type ImportItem,
  type SkippedFile,
} from './import-files.ts';
import { KNOWN_KINDS } from './import-kinds.ts';
import { checkPubmedFiles, isPubmedFile, notPubmedReason, sendPubmedFiles, type PubmedCheck } from './import-pubmed.ts';
import { writePubmedXml } from '../formats/pubmed.ts';
import type { CorpusAnnotationLeftOut } from '../formats/corpus-file.ts';

export interface ImportIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
}

const processIo = (): ImportIo => ({
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  isTty: process.stderr.isTTY === true,
  env: process.env,
});

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 20_000) throw new InvalidArgumentError('expected an integer between 1 and 20000');
  return n;
};

function progress(io: ImportIo, done: number, total: number): void {
  if (!io.isTty) {
    io.stderr(`imported ${done}/${total} articles\n`);
    return;
  }
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
}

interface ImportOptions {
  challenge: string;
  url?: string;
  token?: string;
  batch: number;
  skipBad?: boolean;
  background?: boolean;
}

function importProgram(io: ImportIo): Command {
  return new Command('import')
    .description(
      'load articles into a challenge: directories or files of .txt, .nxml, BioC .xml/.json/.jsonl, PubTator (.pubtator, or .txt starting "PMID|t|"), PMC .tar.gz packages (.nxml or JATS .xml entries) and PubMed/MEDLINE XML (.xml, .xml.gz); other files are refused (skipped in a directory)',
    )
    .requiredOption('--challenge <slug>', 'the challenge to load into')
    .option('--url <url>', 'the meta-server (default $METASERVER_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'the organiser token (default $METASERVER_ADMIN_TOKEN)')
    .option('--batch <n>', 'articles per request', positiveInt, 100)
    .option('--skip-bad', 'load the good documents and list the bad ones (default: one bad document refuses the import, nothing is sent)')
    .option(
      '--background',
      'every imported article is a background article: sent to every server alike, not scored (change the marks with `metaserver mark-scored`; importing again changes none)',
    )
    .argument('<paths...>', 'directories or files holding the articles')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
}

/** Everything read and checked before anything is sent: the other files' articles, the PubMed files' plan, every failure, every package entry skipped. */
async function readEverything(
  files: string[],
  io: ImportIo,
): Promise<{
  items: ImportItem[];
  pubmed: PubmedCheck;
  failures: ImportFailure[];
  skipped: SkippedFile[];
  annotationsLeftOut: CorpusAnnotationLeftOut[];
}> {
  const named = files.filter(isPubmedFile);
  // A .xml.gz that is not PubMed is refused as what it is, not read as a PubMed file that breaks off at once.
  const notPubmed = named.flatMap((file) => {
    const reason = notPubmedReason(file);
    return reason === undefined ? [] : [{ file, document: '-', reason }];
  });
  const pubmedFiles = named.filter((f) => !notPubmed.some((n) => n.file === f));
  const read = await readImportFiles(files.filter((f) => !named.includes(f)));
  const pubmed = await checkPubmedFiles(pubmedFiles, io);
  const failures = [...notPubmed, ...read.failures, ...pubmed.failures];
  const items = read.items.filter((item) => {
    if (!pubmed.run.has(item.id)) return true;
    failures.push({ file: item.file, document: item.id, reason: 'the id is also the PMID of a citation of the PubMed files' });
    return false;
  });
  return { items, pubmed, failures, skipped: read.skipped, annotationsLeftOut: read.annotationsLeftOut };
}

const articlesPath = (opts: ImportOptions) => `/api/challenges/${encodeURIComponent(opts.challenge)}/articles`;

/** The articles of the files other than PubMed's, in batches. */
async function sendItems(items: ImportItem[], opts: ImportOptions, io: ImportIo, ids: Record<string, string>): Promise<number> {
  let created = 0;
  for (let i = 0; i < items.length; i += opts.batch) {
    // Each item has exactly one of text, xml, bioc, pubtator: the route's fields of a listed article.
    const batch = items.slice(i, i + opts.batch).map(({ id, text, xml, bioc, pubtator }) => ({ id, text, xml, bioc, pubtator }));
    const answer = await callApi<{ created: number; ids: Record<string, string> }>(apiTarget(opts, io.env), 'POST', articlesPath(opts), {
      articles: batch,
      ...(opts.background ? { background: true } : {}),
    });
    created += answer.created;
    Object.assign(ids, answer.ids);
    progress(io, Math.min(i + opts.batch, items.length), items.length);
  }
  return created;
}

interface PubmedSummary {
  files: number;
  citations: number;
  superseded: number;
  sent: number;
  created: number;
  /** Stored already with another text: kept as stored, answers untouched (the route's rule for a known id). */
  changed: string[];
  refused: Array<{ document: string; reason: string }>;
  deleted: string[];
  /** Of the deleted PMIDs, those already stored in the challenge: kept, with their answers. */
  deletedButStored: string[];
}

/** The PubMed files' pass 2, each citation sent as PubMed XML of one; conflicts reported, not fatal. */
async function sendPubmed(check: PubmedCheck, opts: ImportOptions, io: ImportIo): Promise<PubmedSummary> {
  const target = apiTarget(opts, io.env);
  const summary: PubmedSummary = {
    files: check.files.length,
    citations: check.citations,
    superseded: check.run.superseded,
    sent: 0,
    created: 0,
    changed: [],
    refused: [],
    deleted: check.run.deleted,
    deletedButStored: [],
  };
  if (check.files.length === 0) return summary;
  summary.sent = await sendPubmedFiles(
    check,
    opts.batch,
    async (batch) => {
      // badDocuments "skip": a PMID stored with another text is named in `refused` and the rest of the batch loads.
      const answer = await callApi<{ created: number; refused?: Array<{ document: string; reason: string }> }>(
        target,
        'POST',
        articlesPath(opts),
        {
          articles: batch.map((c) => ({ id: c.pmid, pubmed: writePubmedXml([c]) })),
          badDocuments: 'skip',
          ...(opts.background ? { background: true } : {}),
        },
      );
      summary.created += answer.created;
      for (const r of answer.refused ?? []) {
        if (/exists already with a different text/.test(r.reason)) summary.changed.push(r.document);
        else summary.refused.push({ document: r.document, reason: r.reason });
      }
    },
    io,
  );
  for (const pmid of summary.deleted) {
    try {
      await callApi(target, 'GET', `${articlesPath(opts)}/${encodeURIComponent(pmid)}?text=false`);
      summary.deletedButStored.push(pmid);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.status === 404)) throw err;
    }
  }
  return summary;
}

function reportPubmed(io: ImportIo, s: PubmedSummary): void {
  if (s.changed.length > 0)
    io.stderr(
      `metaserver import: ${s.changed.length} citation(s) are stored already with another text and were kept as stored, with their answers (PMIDs ${s.changed.slice(0, 20).join(', ')}${s.changed.length > 20 ? ', …' : ''}); load the new versions into a new challenge to have them annotated\n`,
    );
  for (const r of s.refused) io.stderr(`metaserver import: PMID ${r.document} was refused: ${r.reason}\n`);
  if (s.deletedButStored.length > 0)
    io.stderr(
      `metaserver import: PubMed deleted ${s.deletedButStored.length} citation(s) stored in the challenge (PMIDs ${s.deletedButStored.slice(0, 20).join(', ')}${s.deletedButStored.length > 20 ? ', …' : ''}); an import never removes articles or answers\n`,
    );
}

const ID_SOURCE_WORDS: Array<[IdSource, string]> = [
  ['pmcid', 'the PMCID inside'],
  ['package-folder', 'the PMC package folder'],
  ['pmid', 'the PMID inside'],
  ['file-name', 'the file name'],
];

/** What was read, on stderr before anything is sent: the files and package entries skipped, and where the JATS articles' ids came from. */
function reportRead(io: ImportIo, skipped: readonly SkippedFile[], items: readonly ImportItem[]): void {
  for (const s of skipped) io.stderr(`metaserver import: skipped ${s.file}: ${s.reason}\n`);
  const { idSources, idsFromFileName } = idReport(items.filter((i) => i.xml !== undefined));
  const named = `${idsFromFileName.slice(0, 20).join(', ')}${idsFromFileName.length > 20 ? ', …' : ''}`;
  const counts = ID_SOURCE_WORDS.filter(([source]) => idSources[source] !== undefined).map(
    ([source, words]) => `${idSources[source]} from ${words}${source === 'file-name' ? ` (${named})` : ''}`,
  );
  if (counts.length > 0) io.stderr(`metaserver import: JATS article ids: ${counts.join(', ')}\n`);
}

export async function runImportCommand(argv: string[], io: ImportIo = processIo()): Promise<number> {
  const program = importProgram(io);
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  const opts = program.opts<ImportOptions>();
  const paths = program.args;
  let files: string[];
  let read;
  try {
    const listed = importFiles(paths);
    files = listed.files;
    read = await readEverything(files, io);
    read.skipped.unshift(...listed.skipped);
  } catch (err) {
    io.stderr(`metaserver import: cannot read ${paths.join(', ')}: ${(err as Error).message}\n`);
    return 2;
  }
  const { items, pubmed, failures, skipped, annotationsLeftOut } = read;
  const articles = items.length + pubmed.run.size;
  reportRead(io, skipped, items);
  for (const f of failures) io.stderr(`metaserver import: ${f.file}, document ${f.document}: ${f.reason}\n`);
  for (const a of annotationsLeftOut)
    io.stderr(
      `metaserver import: ${a.file}, document ${a.document}, annotation ${a.annotation}: ${a.reason}${opts.skipBad ? ' (left out; the text is loaded)' : ''}\n`,
    );
  if ((failures.length > 0 || annotationsLeftOut.length > 0) && !opts.skipBad) {
    io.stderr(
      `metaserver import: ${failures.length} file(s) or document(s) cannot be loaded${annotationsLeftOut.length > 0 ? ` and ${annotationsLeftOut.length} annotation(s) do not fit their text` : ''}, so nothing was sent; fix them, or run again with --skip-bad to load the ${articles} article(s) that can be (the annotations that do not fit left out)\n`,
    );
    return 1;
  }
  if (articles === 0 && pubmed.run.deleted.length === 0) {
    io.stderr(
      `metaserver import: ${paths.join(', ')} holds no article${skipped.length > 0 ? ` (${skipped.length} skipped, listed above)` : ''}; import reads files named ${KNOWN_KINDS}\n`,
    );
    return 2;
  }
  const ids: Record<string, string> = {};
  let created;
  let pubmedSummary;
  try {
    created = await sendItems(items, opts, io, ids);
    pubmedSummary = await sendPubmed(pubmed, opts, io);
  } catch (err) {
    if (io.isTty) io.stderr('\n');
    if (err instanceof ApiCallError) {
      io.stderr(`metaserver import: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  reportPubmed(io, pubmedSummary);
  const summary = {
    challenge: opts.challenge,
    files: files.length,
    articles,
    created: created + pubmedSummary.created,
    ids,
    ...idReport(items),
    refused: failures,
    skipped,
    ...(annotationsLeftOut.length > 0 ? { annotationsLeftOut } : {}),
  };
  // PubMed articles are counted, not listed in ids (a baseline file would make the line megabytes long).
  io.stdout(`${JSON.stringify(pubmed.files.length > 0 ? { ...summary, pubmed: pubmedSummary } : summary)}\n`);
  return 0;
}
