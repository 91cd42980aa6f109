import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestsuiteCommand } from '../../src/cli/testsuite.ts';

let dir: string;

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runTestsuiteCommand(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'testsuite-cli-'));
  await writeFile(
    join(dir, 'entities.txt'),
    'ID: p100\nname_vs_symbol: s\nsource_authority: UniProt Q00653\ndata: p100\n\nID: acox\ndata: ACOX2\n\nID: scott\ndata: scott of the antarctic\n',
  );
  await writeFile(
    join(dir, 'sentences.txt'),
    [
      'ID: s1\nslots: <> is abundantly expressed in liver.',
      'ID: s2\nslots: We found that <> binds <>.',
      'ID: f1\ntype: fp\nslots: The impact on QoL was small.',
    ].join('\n\n') + '\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('metaserver testsuite', () => {
  it('lists features with value counts from the built-in catalogue', async () => {
    const text = await run('list-features');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^\d+ entities \(built-in\), \d+ sentences \(built-in\)/);
    expect(text.out).toContain('case  [entity, set]');
    const json = JSON.parse((await run('list-features', '--format', 'json', '--entities', join(dir, 'entities.txt'))).out);
    expect(json.entities).toBe(3);
    expect(json.features.find((f: { key: string }) => f.key === 'case').values['lower-initial']).toBe(2);
  });

  it("generates a suite directory and reports a server's answers", async () => {
    const out = join(dir, 'suite');
    const gen = await run(
      'generate',
      '--entities',
      join(dir, 'entities.txt'),
      '--sentences',
      join(dir, 'sentences.txt'),
      '--entity-query',
      'function_word=n',
      '--out',
      out,
    );
    expect(gen.err).toBe('');
    expect(gen.code).toBe(0);
    expect(gen.out).toContain('wrote 5 items (of a product of 5)');
    expect((await readdir(join(out, 'inputs'))).sort()).toEqual(['f1.txt', 's1--acox.txt', 's1--p100.txt', 's2--acox.txt', 's2--p100.txt']);
    expect(await readFile(join(out, 'inputs', 's1--p100.txt'), 'utf8')).toBe('p100 is abundantly expressed in liver.');
    expect(await readFile(join(out, 'gold.sgml'), 'utf8')).toContain('s2--acox\tWe found that <gp>ACOX2</gp> binds <gp>ACOX2</gp>.\n');
    const gold = (await readFile(join(out, 'gold.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(gold[0]).toEqual({
      id: 's1--p100',
      text: 'p100 is abundantly expressed in liver.',
      mentions: [{ start: 0, end: 4, text: 'p100', type: 'gene' }],
    });
    const manifest = JSON.parse(await readFile(join(out, 'suite.json'), 'utf8'));
    expect(manifest.made).toMatchObject({ entityQuery: 'function_word=n', selectedEntities: 2, sample: null });

    // A server that misses p100 at sentence start and tags QoL.
    const answers = gold.map((g) => ({ id: g.id, mentions: g.id === 's1--p100' ? [] : g.mentions }));
    answers.find((a) => a.id === 'f1')!.mentions = [{ start: 14, end: 17, text: 'QoL', type: 'gene' }];
    await writeFile(join(dir, 'answers.jsonl'), answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
    const rep = await run('report', '--suite', out, '--answers', join(dir, 'answers.jsonl'), '--by', 'case,slot.position');
    expect(rep.code).toBe(0);
    const report = JSON.parse(rep.out);
    expect(report.classes[0]).toMatchObject({ key: 'case=all-lower & slot.position=I', gold: 1, strict: { r: 0 } });
    expect(report.falsePositives).toEqual([
      { id: 'f1', sentenceId: 'f1', text: 'The impact on QoL was small.', mentions: [{ start: 14, end: 17, text: 'QoL', type: 'gene' }] },
    ]);
    const tsv = await run('report', '--suite', out, '--answers', join(dir, 'answers.jsonl'), '--format', 'tsv');
    expect(tsv.out.split('\n')[0]).toMatch(/^class\tgold\t/);
    expect(tsv.out).toContain('\nf1\t14\t17\tQoL\tThe impact on QoL was small.\n');
  });

  it('samples with a seed, deterministically', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    for (const o of [a, b]) expect((await run('generate', '--sample', '20', '--seed', 'x', '--out', o)).code).toBe(0);
    expect(await readFile(join(a, 'gold.sgml'), 'utf8')).toBe(await readFile(join(b, 'gold.sgml'), 'utf8'));
    expect((await readdir(join(a, 'inputs'))).length).toBe(20);
  });

  it('exits 2 on command-line mistakes and 1 on bad files', async () => {
    const q = await run('generate', '--entity-query', 'case=', '--out', join(dir, 'x'));
    expect(q.code).toBe(2);
    expect(q.err).toContain('expected a value after "=", found the end of the query (at column 6)');
    expect((await run('generate', '--sample', 'many', '--out', join(dir, 'x'))).code).toBe(2);
    expect((await run('generate')).code).toBe(2);
    expect((await run('bogus')).code).toBe(2);
    expect((await run()).code).toBe(2);
    const by = await run('report', '--suite', join(dir, 'suite'), '--answers', join(dir, 'answers.jsonl'), '--by', 'colour');
    expect([by.code, by.err]).toEqual([2, expect.stringContaining('unknown feature "colour"')]);
    await writeFile(join(dir, 'bad.txt'), 'ID: 1\nno colon\n');
    const bad = await run('generate', '--entities', join(dir, 'bad.txt'), '--out', join(dir, 'x'));
    expect([bad.code, bad.err]).toEqual([1, expect.stringContaining('bad.txt:2')]);
    await writeFile(join(dir, 'bad.jsonl'), '{"id": "f1", "mentions": [{"start": 3, "end": 1}]}\n');
    const ans = await run('report', '--suite', join(dir, 'suite'), '--answers', join(dir, 'bad.jsonl'));
    expect([ans.code, ans.err]).toEqual([1, expect.stringContaining('bad.jsonl:1: mentions[0]')]);
    expect((await run('report', '--suite', join(dir, 'nope'), '--answers', join(dir, 'bad.jsonl'))).code).toBe(1);
  });
});
