// `metaserver export` and the export route on stored answers that test the formats: a
// tagger answers mentions that cross line breaks, hold a TAB, sit outside the BMP, nest and
// overlap, and a COREF link with its protein list. Each file that comes out is read by the
// reader of the tool it is named after (brat, conlleval/evalbio.pl, PubAnnotation, GNU tar).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportCommand } from '../../src/cli/export.ts';
import { importBrat } from '../../src/formats/brat.ts';
import type { MentionItem } from '../../src/families/mention/types.ts';
import type { XmlRpcValue } from '../../src/xmlrpc/codec.ts';
import { readBrat } from '../support/brat-reader.ts';
import { captured } from '../support/captured-io.ts';
import { conlleval, evalbio, pasteGoldAndRun } from '../support/conll-evaluators.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { textAsSent } from '../../src/articles/input.ts';
import { mentionsC as mentionsAsLoaded, spanOf, TEXT_C as TEXT_AS_LOADED } from '../formats/sample-articles.ts';

// The article is stored and sent without carriage returns (CR LF → space LF, one character
// for one), so the tagger finds the same spans in the text it receives.
const TEXT_C = textAsSent(TEXT_AS_LOADED);
const mentionsC: MentionItem[] = mentionsAsLoaded.map((m) => ({ ...m, text: textAsSent(m.text) }));
/** The mentions BIO cannot hold: each overlaps a longer one (as overlappedC in sample-articles). */
const overlappedC = [mentionsC[1], mentionsC[3], mentionsC[9], mentionsC[10]];

const COREF_TEXT = 'NF-kappa B, a heterodimer of p50 and p65, binds DNA. It is active.';
const GIVEN = ['p50', 'p65']
  .map((p, i) => `T${i + 1}\tProtein ${spanOf(COREF_TEXT, p).start} ${spanOf(COREF_TEXT, p).end}\t${p}`)
  .join('\n');

/** The tagger: mentionsC on TEXT_C, and one Coref link (in the space form servers send) on COREF_TEXT. */
function answer(text: string): XmlRpcValue {
  if (text === TEXT_C) return { mentions: mentionsC.map((m) => ({ offset: m.start, mention: m.text, type: m.type! })), coref: '' };
  const np = spanOf(text, 'NF-kappa B, a heterodimer of p50 and p65');
  const it = spanOf(text, 'It');
  return {
    mentions: [],
    coref: [
      `T3\tExp ${np.start} ${np.end}\t${np.text}`,
      `T4\tExp ${it.start} ${it.end}\tIt`,
      'R1\tCoref Anaphora:T4 Antecedent:T3 [T1, T2]',
    ].join('\n'),
  };
}

describe('exports of stored answers, read by the tools', () => {
  let ms: TestMetaserver;
  let tagger: FaultyServer;
  let address: string;
  let serverId: number;
  let dir: string;
  let common: string[];

  beforeAll(async () => {
    tagger = await startFaultyServer({ kind: 'custom', handler: answer });
    ms = await startTestMetaserver();
    address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    await ms.challenge('anem', { name: 'AnEM', tasks: ['MENTION', 'COREF'] });
    const team = await ms.team('Formats team');
    serverId = (await ms.server('anem', team.token, { name: 'tagger', url: tagger.url, tasks: ['MENTION', 'COREF'] })).id;
    await ms.startServer(serverId, team.token);
    const loaded = await ms.articles('anem', [
      { id: 'PMC3', text: TEXT_AS_LOADED },
      { id: 'PMC10', text: COREF_TEXT, given: GIVEN },
    ]);
    for (const id of Object.values<string>(loaded.ids)) {
      await waitFor(`article ${id} to be answered`, async () => {
        const res = await ms.request('GET', `/api/articles/${id}`, undefined, ADMIN_TOKEN);
        return res.status === 200 && res.body.servers?.[0]?.result ? res.body : undefined;
      });
    }
    dir = mkdtempSync(join(tmpdir(), 'metaserver-formats-'));
    common = ['--challenge', 'anem', '--server', String(serverId), '--url', address, '--token', ADMIN_TOKEN];
  }, 120_000);
  afterAll(async () => {
    await ms?.stop();
    await tagger?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const io = captured();
    const code = await runExportCommand([...common, ...args], io);
    return { code, err: io.err };
  };

  it('brat: every .ann loads in brat without a failed line and gives the stored mentions back', async () => {
    expect((await run(['--task', 'MENTION', '--format', 'brat', '--out', join(dir, 'brat')])).code).toBe(0);
    const txt = readFileSync(join(dir, 'brat', 'PMC3.txt'), 'utf8');
    const ann = readFileSync(join(dir, 'brat', 'PMC3.ann'), 'utf8');
    for (const universalNewlines of [false, true])
      expect(readBrat(txt, ann, { universalNewlines })).toMatchObject({ failedLines: [], messages: [] });
    expect(importBrat(TEXT_C, ann).map(({ start, end, text, type }) => ({ start, end, text, type }))).toEqual(mentionsC);
  });

  it('a2: the link keeps its proteins after a TAB, and brat reads .a1 + .a2 without a failed line', async () => {
    expect((await run(['--task', 'COREF', '--format', 'a2', '--out', join(dir, 'a2')])).code).toBe(0);
    const a2 = readFileSync(join(dir, 'a2', 'PMC10.a2'), 'utf8');
    expect(a2).toContain('R1\tCoref Anaphora:T4 Antecedent:T3\t[T1, T2]\n');
    expect(readBrat(COREF_TEXT, [`${GIVEN}\n`, a2])).toMatchObject({ failedLines: [], messages: [] });
  });

  it('bio: says how many mentions it left out, and both scorers give the export 100% against itself', async () => {
    const out = join(dir, 'run.bio');
    const { code, err } = await run(['--task', 'MENTION', '--format', 'bio', '--out', out]);
    expect(code).toBe(0);
    expect(err).toMatch(
      new RegExp(
        `^left out ${overlappedC.length} mentions that BIO cannot hold: of overlapping mentions only the longest \\(then the earliest\\) is kept`,
      ),
    );
    const bio = readFileSync(out, 'utf8');
    const kept = mentionsC.length - overlappedC.length;
    expect(evalbio(bio, bio)).toEqual({ gold: kept, predicted: kept, complete: kept, left: kept, right: kept });
    expect(conlleval(pasteGoldAndRun(bio, bio), '\t')).toMatchObject({ foundCorrect: kept, correctChunks: kept, fb1: 100 });

    const route = await ms.app!.inject({
      url: `/api/challenges/anem/export/MENTION/bio?server=${serverId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(route.headers['x-mentions-left-out']).toBe(String(overlappedC.length));
    expect(route.json()).toMatchObject({ mentionsLeftOut: overlappedC.length, files: [{ content: bio }] });

    // Any format goes into one archive when --out ends in .tar.gz; the count is still said.
    const archived = await run(['--task', 'MENTION', '--format', 'bio', '--out', join(dir, 'bio.tar.gz')]);
    expect(archived.err).toMatch(/^left out \d+ mentions[^]*\nwrote 1 file into /);
    const [name] = execFileSync('tar', ['-tzf', join(dir, 'bio.tar.gz')])
      .toString()
      .trim()
      .split('\n');
    expect(name).toMatch(/\.MENTION\.bio$/);
    expect(execFileSync('tar', ['-xzOf', join(dir, 'bio.tar.gz'), name]).toString()).toBe(bio);
  });

  it('pubannotation: one JSON file per document, in a directory or a tar.gz, sourcedb from the option or the challenge', async () => {
    expect((await run(['--task', 'MENTION', '--format', 'pubannotation', '--out', join(dir, 'pa')])).code).toBe(0);
    expect(readdirSync(join(dir, 'pa')).sort()).toEqual(['PMC10.json', 'PMC3.json']);
    const doc = JSON.parse(readFileSync(join(dir, 'pa', 'PMC3.json'), 'utf8'));
    expect(doc).toMatchObject({ text: TEXT_C, sourcedb: 'anem', sourceid: 'PMC3', relations: [] });
    expect(doc.denotations.map((d: { span: { begin: number; end: number }; obj: string }) => [d.span.begin, d.span.end, d.obj])).toEqual(
      mentionsC.map((m: MentionItem) => [m.start, m.end, m.type]),
    );

    const archive = join(dir, 'pa.tar.gz');
    expect((await run(['--task', 'MENTION', '--format', 'pubannotation', '--sourcedb', 'PMC', '--out', archive])).code).toBe(0);
    expect(execFileSync('tar', ['-tzf', archive]).toString().trim().split('\n')).toEqual(['PMC3.json', 'PMC10.json']); // load order
    const fromTar = JSON.parse(execFileSync('tar', ['-xzOf', archive, 'PMC3.json']).toString());
    expect(fromTar).toEqual({ ...doc, sourcedb: 'PMC' });

    const route = await ms.app!.inject({
      url: `/api/challenges/anem/export/MENTION/brat?server=${serverId}&archive=tar.gz`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(route.headers['content-type']).toBe('application/gzip');
    expect(route.headers['content-disposition']).toMatch(/^attachment; filename=".+\.MENTION\.brat\.tar\.gz"$/);
    expect(execFileSync('tar', ['-tzf', '-'], { input: route.rawPayload }).toString().trim().split('\n')).toEqual([
      // load order
      'PMC3.txt',
      'PMC3.ann',
      'PMC10.txt',
      'PMC10.ann',
    ]);

    const wrong = await run(['--task', 'MENTION', '--format', 'bio', '--sourcedb', 'PMC', '--out', join(dir, 'x.bio')]);
    expect(wrong).toMatchObject({ code: 2, err: expect.stringMatching(/--sourcedb applies to --format pubannotation only/) });
  });
});
