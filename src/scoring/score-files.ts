// What `metaserver score` gives each family's scorer: the parsed flags and the file
// helpers (reads through the injected io, with errors that name the file). Kept apart
// from score.ts so the families can use it without importing the command itself.

import { basename } from 'node:path';
import { ScoringInputError, type ColumnLayout, type ReportFormat } from './index.ts';

export interface ScoreIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readFile: (path: string) => Promise<string>;
  /** The entry names of a directory; rejects (ENOTDIR) for a file. */
  readDir: (path: string) => Promise<string[]>;
}

export interface ScoreFlags {
  gold?: string;
  given?: string;
  entities?: string;
  pmids?: string;
  columns: ColumnLayout;
  all?: boolean;
  cutoff?: string;
  ho?: string;
  of?: string;
  beta?: string;
  singleClass?: boolean;
  lenient?: boolean;
  /** NORM: the one annotation type scored (both tools take one). */
  type?: string;
  format: ReportFormat;
}

/** The flags a family may accept beyond --gold and --format. */
export type ScoreFlag =
  'given' | 'entities' | 'pmids' | 'columns' | 'all' | 'cutoff' | 'ho' | 'of' | 'beta' | 'singleClass' | 'lenient' | 'type';

/**
 * The file formats `metaserver score` reads, each as its help names it. A scorer declares
 * those it reads (FamilyScoreCli.reads); the help lists them per scorer, and a test scores
 * a file of each declared format, so the list cannot claim a format that is not read.
 */
export const SCORE_FILE_FORMATS = {
  'bc2-tsv': 'BC II.5 tab-separated gold and result files (as bc-evaluate reads them)',
  'brat-dir': 'brat directories (<doc>.ann)',
  'brat-ann': 'single brat .ann files',
  bio: 'BIO/CoNLL (token<TAB>tag: IOB2, IOBES, BILOU)',
  'bioc-xml': 'BioC XML',
  'bioc-json': 'BioC JSON',
  'bioc-jsonl': 'BioC JSON lines',
  pubtator: 'PubTator',
  'bionlp-st': 'BioNLP-ST directories (gold <doc>.a2, --given <doc>.a1; runs <doc>.a2)',
  'drugprot-tsv': 'DrugProt relations TSV (with --entities)',
  'litcovid-table': 'LitCovid table (PMID,<label>,… 0/1 or probabilities; comma or TAB)',
  'litcovid-list': 'LitCovid list (PMID,label;label; comma or TAB)',
} as const;

export type ScoreFileFormat = keyof typeof SCORE_FILE_FORMATS;

/** A mistake on the command line (exit 2), as opposed to one in a file (exit 1). */
export class UsageError extends Error {}

/** The run's name in the report: the file or directory name without its extension. */
export function runName(path: string): string {
  return basename(path.replace(/[\\/]+$/, '')).replace(/\.[^.]*$/, '') || path;
}

export function positiveNumber(raw: string | undefined, flag: string, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${flag} must be a positive ${integer ? 'integer' : 'number'}, not "${raw}"`);
  }
  return value;
}

/** File access and reporting for one `metaserver score` run. */
export class ScoreFiles {
  constructor(
    private readonly io: ScoreIo,
    /** Warnings about quirks that did not stop a parse (stderr). */
    readonly warn: (warnings: string[]) => void,
    /** Notes about one run, such as links not scored (stderr). */
    readonly note: (run: string, messages: string[]) => void,
  ) {}

  async read(path: string): Promise<string> {
    try {
      return await this.io.readFile(path);
    } catch (error) {
      throw new ScoringInputError(`cannot read the file: ${(error as Error).message}`, { file: path, hint: 'check the path' });
    }
  }

  /** Directory entries, sorted, or undefined when `path` is a file. */
  async listDir(path: string): Promise<string[] | undefined> {
    try {
      return (await this.io.readDir(path)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw new ScoringInputError(`cannot open: ${(error as Error).message}`, { file: path, hint: 'check the path' });
    }
  }
}
