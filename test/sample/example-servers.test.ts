// The Perl (RPC::XML) and Ruby (xmlrpc on WEBrick) sample servers must answer exactly like
// the TypeScript sample annotator, asked directly and through the whole path: registered
// (with the setup check), sent a challenge's articles by dispatch, their answers validated
// and stored. The articles hold characters outside the BMP, accents and a CR LF, where
// counting UTF-16 units or UTF-8 bytes instead of code points would show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { callXmlRpc } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';
import { startExampleServer, type ExampleLanguage, type ExampleServer } from '../support/example-servers.ts';
import { REL_ARTICLE, REL_EXPECTED } from './rel-fixture.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const NON_BMP =
  '𝛼-synuclein (P37840) binds BRCA1 and forms a complex with Q9UQ84 😀. It also interacts with A0A023GPI8; ' +
  'they bind IL2R, Il2r1 and p53.\r\nÄrger über 𝔊ene: X12345 Q9ZFS6-2 (BRCA2) — its role.';
const ASCII = 'TP53 (P04637) binds MDM2 (Q00987) in human and Mus musculus cells. It is a complex of IL2R and CD4.';
/** TX: species words in any ASCII case, next to non-ASCII letters, repeated, and near misses ("humanised", "yeasts"). */
const SPECIES =
  'Mice (MUS MUSCULUS) and Humans; not humanised, nor yeasts. Ärats 😀 and Homo sapiens, then mice again and E. coli (Escherichia coli) in Drosophila.';
/** TOPIC: stems in any ASCII case, inside words, repeated, beside non-ASCII letters; "Diagnosis" and "Mechanism" absent. */
const TOPICS = 'Treatment of 😀 TREATED patients: vaccines Prevent transmission, and prevention forecasts. A Case Report — Ärger.';
const ONE_ACCESSION = 'Ölfarbe 😀 P38398';
const codePoints = (text: string, word: string): number => Array.from(text.slice(0, text.indexOf(word))).length;
const givenFor = (text: string, ...words: string[]): string =>
  words.map((w, i) => `T${i + 2}\tProtein ${codePoints(text, w)} ${codePoints(text, w) + w.length}\t${w}`).join('\n');
const ARTICLES = [
  { id: 'NONBMP', text: NON_BMP, given: givenFor(NON_BMP, 'synuclein', 'BRCA2') },
  { id: 'ASCII', text: ASCII, given: givenFor(ASCII, 'TP53') },
  { id: 'ONE', text: ONE_ACCESSION },
  { id: 'SPECIES', text: SPECIES },
  { id: 'TOPICS', text: TOPICS },
];
const TASKS = ['ACT', 'INT', 'IPT', 'MENTION', 'COREF', 'TX', 'TOPIC', 'CREL'];
const LANGUAGES: ExampleLanguage[] = ['perl', 'ruby'];

const servers: Partial<Record<ExampleLanguage, ExampleServer>> = {};

beforeAll(async () => {
  for (const language of LANGUAGES) servers[language] = await startExampleServer(language);
});
afterAll(() => {
  for (const server of Object.values(servers)) server?.stop();
});

describe.each(LANGUAGES)('examples/%s sample server, asked directly', (language) => {
  const ask = (method: string, params: string[]) =>
    callXmlRpc({ url: servers[language]!.url, body: encodeMethodCall(method, params), deadlineMs: 10_000, maxResponseBytes: 1_000_000 });

  it('answers exactly like the TypeScript annotator, offsets in code points', async () => {
    const outcome = await ask('Annotator.getAnnotation', [NON_BMP]);
    expect(outcome).toMatchObject({ ok: true, value: annotate(NON_BMP) });
    if (!outcome.ok) throw new Error(outcome.detail);
    const mentions = (outcome.value as { mentions: Array<{ offset: number; mention: string }> }).mentions;
    // BRCA2 sits after three characters outside the BMP and two accented ones.
    expect(mentions.find((m) => m.mention === 'BRCA2')!.offset).toBe(codePoints(NON_BMP, 'BRCA2'));
    expect(codePoints(NON_BMP, 'BRCA2')).not.toBe(NON_BMP.indexOf('BRCA2'));
  });

  it('links coreference the same way for the same given proteins, with a meta struct too', async () => {
    const given = ARTICLES[0].given!;
    const expected = annotate(NON_BMP, given);
    expect(expected.coref).toMatch(/Antecedent:T\d+ \[T3\]/);
    expect(await ask('Annotator.getAnnotation', [NON_BMP, given])).toMatchObject({ ok: true, value: expected });
    const withMeta = await callXmlRpc({
      url: servers[language]!.url,
      body: encodeMethodCall('Annotator.getAnnotation', [NON_BMP, given, { article: 'a1', tasks: ['COREF'] }]),
      deadlineMs: 10_000,
      maxResponseBytes: 1_000_000,
    });
    expect(withMeta).toMatchObject({ ok: true, value: expected });
  });

  it('names the same species (TX) with the same NCBI Taxonomy ids, ranks and confidences', async () => {
    const expected = annotate(SPECIES);
    expect(expected.taxons).toEqual([
      { taxid: 10090, rank: 1, confidence: 1 / 2 },
      { taxid: 9606, rank: 2, confidence: 1 / 3 },
      { taxid: 10116, rank: 3, confidence: 1 / 4 },
      { taxid: 562, rank: 4, confidence: 1 / 5 },
      { taxid: 7227, rank: 5, confidence: 1 / 6 },
    ]);
    expect(await ask('Annotator.getAnnotation', [SPECIES])).toMatchObject({ ok: true, value: expected });
    expect(await ask('Annotator.getAnnotation', [ASCII])).toMatchObject({ ok: true, value: { taxons: annotate(ASCII).taxons } });
  });

  it('names the same LitCovid topics (TOPIC) with the same confidences', async () => {
    const expected = annotate(TOPICS);
    expect(expected.topics).toEqual([
      { label: 'Treatment', confidence: 2 / 3 },
      { label: 'Prevention', confidence: 2 / 3 },
      { label: 'Transmission', confidence: 1 / 2 },
      { label: 'Epidemic Forecasting', confidence: 1 / 2 },
      { label: 'Case Report', confidence: 1 / 2 },
    ]);
    expect(await ask('Annotator.getAnnotation', [TOPICS])).toMatchObject({ ok: true, value: expected });
    expect(await ask('Annotator.getAnnotation', [ASCII])).toMatchObject({ ok: true, value: { topics: [] } });
  });

  it('relates the given entities (REL) with the same types, ranks and confidences', async () => {
    expect(annotate(REL_ARTICLE.text, REL_ARTICLE.given).relations).toEqual(REL_EXPECTED);
    expect(await ask('Annotator.getAnnotation', [REL_ARTICLE.text, REL_ARTICLE.given])).toMatchObject({
      ok: true,
      value: annotate(REL_ARTICLE.text, REL_ARTICLE.given),
    });
  });

  it('faults on an unknown method and on a wrong parameter list', async () => {
    expect(await ask('Nope.nothing', ['x'])).toMatchObject({ ok: false, kind: 'fault' });
    expect(await ask('Annotator.getAnnotation', [])).toMatchObject({ ok: false, kind: 'fault' });
  });
});

describe('the sample servers through the whole path', () => {
  let ms: TestMetaserver;
  let sample: SampleServer;
  let python: ExampleServer;

  beforeAll(async () => {
    ms = await startTestMetaserver();
    [sample, python] = await Promise.all([startSampleServer({ port: 0 }), startExampleServer('python')]);
  });
  afterAll(async () => {
    await ms?.stop();
    await sample?.close();
    python?.stop();
  });

  it('stores from Perl, Ruby and Python exactly the answer stored from the TypeScript sample', async () => {
    await ms.challenge('samples', { name: 'Samples', tasks: TASKS, maxAttempts: 1 });
    const ids: Record<string, number> = {};
    const urls = { typescript: sample.url, python: python.url, perl: servers.perl!.url, ruby: servers.ruby!.url };
    for (const [name, url] of Object.entries(urls)) {
      const team = await ms.team(`Team ${name}`);
      const server = await ms.server('samples', team.token, { name, url, tasks: TASKS });
      expect(server.check).toMatchObject({ ok: true, reachable: true });
      await ms.startServer(server.id, team.token);
      ids[name] = server.id;
    }
    const loaded = await ms.articles('samples', ARTICLES);

    for (const article of ARTICLES) {
      const view = await waitFor(`every server's answer to ${article.id}`, async () => {
        const res = await ms.request('GET', `/api/articles/${loaded.ids[article.id]}`, undefined, ADMIN_TOKEN);
        return res.status === 200 ? res.body : undefined;
      });
      const stored = Object.fromEntries(view.servers.map((s: { serverId: number; state: string; result: unknown }) => [s.serverId, s]));
      const reference = stored[ids.typescript];
      expect(reference.state).toBe('done');
      for (const name of ['python', 'perl', 'ruby']) {
        expect(stored[ids[name]].state, `${name} on ${article.id}`).toBe('done');
        expect(stored[ids[name]].result, `${name} on ${article.id}`).toEqual(reference.result);
      }
      // The reference itself is the sample annotator's answer, in code points.
      const expected = annotate(article.text, article.given ?? '').mentions as Array<{ offset: number; mention: string }>;
      expect(reference.result.MENTION.map((m: { start: number; text: string }) => [m.start, m.text])).toEqual(
        expected.map((m) => [m.offset, m.mention]),
      );
      // TX is answered and stored too: the check passes for TX because there is an answer, not an empty key.
      expect(reference.result.TX.map((t: { taxid: number }) => t.taxid)).toEqual(
        (annotate(article.text).taxons as Array<{ taxid: number }>).map((t) => t.taxid),
      );
      expect(reference.result.TOPIC).toEqual(annotate(article.text).topics);
      // CREL: the first two distinct ids of the mentions, as the sample relates them (TP53 and MDM2 in ASCII).
      expect(reference.result.CREL.relations.map((r: { concept1: string; concept2: string }) => [r.concept1, r.concept2])).toEqual(
        (annotate(article.text).concept_relations as Array<{ concept1: string; concept2: string }>).map((r) =>
          [r.concept1, r.concept2].sort(),
        ),
      );
    }
    expect(ARTICLES.some((a) => (annotate(a.text).concept_relations as unknown[]).length > 0)).toBe(true);
  });
});
