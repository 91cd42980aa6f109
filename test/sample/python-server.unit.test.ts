// The Python template must answer exactly like the TypeScript sample annotator: this
// proves both count offsets in code points (the text holds characters outside the BMP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { callXmlRpc } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { REL_ARTICLE, REL_EXPECTED } from './rel-fixture.ts';

const TEXT =
  '𝛼-synuclein (P37840) binds BRCA1 and forms a complex with Q9UQ84 😀. It also interacts with A0A023GPI8; ' +
  'they bind IL2R, Il2r1 and p53.\r\nÄrger über 𝔊ene: X12345 Q9ZFS6-2 (BRCA2) — its role.';
let python: PythonServer;
let url: string;

beforeAll(async () => {
  python = await startPythonServer();
  url = python.url;
});

afterAll(() => {
  python?.stop();
});

function askPython(params: string[]) {
  return callXmlRpc({ url, body: encodeMethodCall('Annotator.getAnnotation', params), deadlineMs: 10_000, maxResponseBytes: 1_000_000 });
}

describe('examples/python/annotation_server.py', () => {
  it('answers exactly like the TypeScript annotator, offsets in code points', async () => {
    const outcome = await askPython([TEXT]);
    expect(outcome.ok).toBe(true);
    const answer = (outcome as { value: Record<string, unknown> }).value;
    expect(answer).toEqual(annotate(TEXT));
    // the mentions after the non-BMP characters are where the offsets of UTF-16 and code points differ
    expect((answer.mentions as Array<{ mention: string }>).map((m) => m.mention)).toEqual(['BRCA1', 'IL2R', 'Il2r1', 'X12345', 'BRCA2']);
    expect((answer.normalizations as Array<{ dbid: string }>).map((n) => n.dbid)).toEqual(['P37840', 'Q9UQ84', 'A0A023GPI8', 'Q9ZFS6']);
  });

  it('names species (TX) exactly like the TypeScript annotator', async () => {
    const species =
      'Mice (MUS MUSCULUS) and Humans; not humanised, nor yeasts. Ärats 😀 and Homo sapiens, then E. coli (Escherichia coli) in Drosophila.';
    const outcome = await askPython([species]);
    expect(outcome).toMatchObject({ ok: true, value: annotate(species) });
    expect((annotate(species).taxons as Array<{ taxid: number }>).map((t) => t.taxid)).toEqual([10090, 9606, 10116, 562, 7227]);
  });

  it('names LitCovid topics (TOPIC) exactly like the TypeScript annotator', async () => {
    const text = 'Treatment of 😀 TREATED patients: vaccines Prevent transmission. A Case Report — Ärger.';
    const outcome = await askPython([text]);
    expect(outcome).toMatchObject({ ok: true, value: annotate(text) });
    expect((annotate(text).topics as Array<{ label: string }>).map((t) => t.label)).toEqual([
      'Treatment',
      'Prevention',
      'Transmission',
      'Case Report',
    ]);
  });

  it('links coreference the same way for the same given proteins', async () => {
    const at = (word: string): number => Array.from(TEXT.slice(0, TEXT.indexOf(word))).length; // code points before it
    const s = at('synuclein');
    const b = at('BRCA2');
    const given = `T3\tProtein ${s} ${s + 9}\tsynuclein\nT7\tProtein ${b} ${b + 5}\tBRCA2`;
    const outcome = await askPython([TEXT, given]);
    const expected = annotate(TEXT, given);
    expect(expected.coref).toMatch(/Antecedent:T\d+ \[T7\]/);
    expect(outcome).toMatchObject({ ok: true, value: expected });
  });

  it('relates the given entities (REL) exactly like the TypeScript annotator', async () => {
    expect(annotate(REL_ARTICLE.text, REL_ARTICLE.given).relations).toEqual(REL_EXPECTED);
    expect(await askPython([REL_ARTICLE.text, REL_ARTICLE.given])).toMatchObject({
      ok: true,
      value: annotate(REL_ARTICLE.text, REL_ARTICLE.given),
    });
  });

  it('faults on an unknown method like any XML-RPC server', async () => {
    const outcome = await callXmlRpc({ url, body: encodeMethodCall('Nope.nothing', ['x']), deadlineMs: 10_000, maxResponseBytes: 100_000 });
    expect(outcome).toMatchObject({ ok: false, kind: 'fault' });
  });
});
