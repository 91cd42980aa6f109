// The on-disk form of a generated suite and of one server's answers:
//   inputs/<id>.txt  the raw test input, one item per file
//   gold.sgml        `<id>\t<sentence with <gp>…</gp>>` per line, the paper's gold form
//   gold.jsonl       `{id, text, mentions}` per line, the same gold as standoff
//   suite.json       the manifest: how it was made and every item's features
// Answers are JSONL `{id, mentions: [{start, end, text?, type?}]}` with code-point offsets.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MentionItem } from '../families/mention/types.ts';
import type { GeneratedSuite } from './generate.ts';
import type { GeneratedItem } from './types.ts';

export const SUITE_FORMAT = 'metaserver-testsuite';

export class SuiteFileError extends Error {
  constructor(message: string, file: string, line?: number) {
    super(`${file}${line ? `:${line}` : ''}: ${message}`);
    this.name = 'SuiteFileError';
  }
}

type ManifestItem = Omit<GeneratedItem, 'text' | 'sgml' | 'mentions'> & { file: string };

/** Relative path → content of every file of a suite directory. */
export function suiteFiles(suite: GeneratedSuite, made: Record<string, unknown>): [string, string][] {
  const files: [string, string][] = suite.items.map((i) => [join('inputs', `${i.id}.txt`), i.text]);
  files.push(['gold.sgml', suite.items.map((i) => `${i.id}\t${i.sgml}\n`).join('')]);
  files.push(['gold.jsonl', suite.items.map((i) => JSON.stringify({ id: i.id, text: i.text, mentions: i.mentions }) + '\n').join('')]);
  const items: ManifestItem[] = suite.items.map(({ text: _t, sgml: _s, mentions: _m, ...rest }) => ({
    ...rest,
    file: `inputs/${rest.id}.txt`,
  }));
  files.push([
    'suite.json',
    JSON.stringify({ format: SUITE_FORMAT, version: 1, made, productSize: suite.productSize, items }, null, 1) + '\n',
  ]);
  return files;
}

async function read(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new SuiteFileError(`cannot read: ${(error as Error).message}`, path);
  }
}

function jsonLines(text: string, file: string): { line: number; value: Record<string, unknown> }[] {
  return text.split(/\r?\n/).flatMap((raw, i) => {
    if (raw.trim() === '') return [];
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new SuiteFileError(`not JSON: ${(error as Error).message}`, file, i + 1);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SuiteFileError('expected an object', file, i + 1);
    return [{ line: i + 1, value: value as Record<string, unknown> }];
  });
}

function mentionsOf(raw: unknown, file: string, line: number): MentionItem[] {
  if (!Array.isArray(raw)) throw new SuiteFileError('"mentions" must be an array', file, line);
  return raw.map((m, k) => {
    const o = m as Record<string, unknown>;
    const ok =
      typeof o === 'object' &&
      o !== null &&
      Number.isInteger(o.start) &&
      Number.isInteger(o.end) &&
      (o.start as number) >= 0 &&
      (o.end as number) > (o.start as number);
    if (!ok) throw new SuiteFileError(`mentions[${k}] needs integer start < end (code points)`, file, line);
    return {
      start: o.start as number,
      end: o.end as number,
      text: typeof o.text === 'string' ? o.text : '',
      ...(typeof o.type === 'string' ? { type: o.type } : {}),
    };
  });
}

/** Reads a suite directory back into items (features from the manifest, gold from gold.jsonl and gold.sgml). */
export async function readSuite(dir: string): Promise<GeneratedItem[]> {
  const manifestPath = join(dir, 'suite.json');
  let manifest: { format?: string; items?: ManifestItem[] };
  try {
    manifest = JSON.parse(await read(manifestPath)) as typeof manifest; // its shape is checked below
  } catch (error) {
    if (error instanceof SuiteFileError) throw error;
    throw new SuiteFileError(`not JSON: ${(error as Error).message}`, manifestPath);
  }
  if (manifest.format !== SUITE_FORMAT || !Array.isArray(manifest.items))
    throw new SuiteFileError(`not a suite manifest (format "${SUITE_FORMAT}")`, manifestPath);
  const goldPath = join(dir, 'gold.jsonl');
  const gold = new Map(
    jsonLines(await read(goldPath), goldPath).map(({ line, value }) => [
      String(value.id),
      { text: String(value.text), mentions: mentionsOf(value.mentions, goldPath, line) },
    ]),
  );
  const sgml = new Map(
    (await read(join(dir, 'gold.sgml')))
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)]),
  );
  return manifest.items.map(({ file: _f, ...item }) => {
    const g = gold.get(item.id);
    if (!g) throw new SuiteFileError(`no gold for item ${item.id}`, goldPath);
    return { ...item, text: g.text, mentions: g.mentions, sgml: sgml.get(item.id) ?? '' };
  });
}

/** One server's answers by item id. */
export async function readAnswers(file: string): Promise<Map<string, MentionItem[]>> {
  const answers = new Map<string, MentionItem[]>();
  for (const { line, value } of jsonLines(await read(file), file)) {
    if (typeof value.id !== 'string') throw new SuiteFileError('"id" must be a string', file, line);
    if (answers.has(value.id)) throw new SuiteFileError(`a second answer for ${value.id}`, file, line);
    answers.set(value.id, mentionsOf(value.mentions, file, line));
  }
  return answers;
}
