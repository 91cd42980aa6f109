// One URL policy at every call. IPv6 spellings that embed an IPv4 address are judged by
// that address; the cloud metadata services are refused by address and by name; and a
// server registered on loopback before METASERVER_PUBLIC_URLS_ONLY was turned on is
// refused by the setup check exactly as by dispatch and callbacks: no request reaches it.
// Against real loopback servers, on PGlite and (with DATABASE_URL) PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { postCallback } from '../../src/callbacks/service.ts';
import { hostProblem, urlProblem } from '../../src/http/url-policy.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { openTestDatabase, startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';

const servers: FaultyServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('addresses that embed an IPv4 address', () => {
  // Loopback 127.0.0.1 = 7f00:0001; metadata 169.254.169.254 = a9fe:a9fe; public 8.8.8.8 = 0808:0808.
  const spellings: Array<[string, string, string]> = [
    ['NAT64 (RFC 6052)', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe'],
    ['local-use NAT64 (RFC 8215)', '64:ff9b:1::7f00:1', '64:ff9b:1::a9fe:a9fe'],
    ['IPv4-compatible', '::127.0.0.1', '::169.254.169.254'],
    ['IPv4-mapped', '::ffff:127.0.0.1', '::ffff:169.254.169.254'],
    ['IPv4-translated (RFC 6145)', '::ffff:0:127.0.0.1', '::ffff:0:169.254.169.254'],
    ['6to4 (RFC 3056)', '2002:7f00:1::1', '2002:a9fe:a9fe::1'],
    // Teredo: server 65.54.227.120, client address inverted in the last 32 bits.
    ['Teredo client (RFC 4380)', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:4136:e378:8000:63bf:5601:5601'],
  ];
  it.each(spellings)('%s: judged by the IPv4 address inside', (_name, loopback, metadata) => {
    expect(urlProblem(`http://[${loopback}]:8000/RPC2`, true)).toMatch(
      /stands for 127\.0\.0\.1\) is a loopback address, and this meta-server only calls public addresses/,
    );
    expect(urlProblem(`http://[${loopback}]:8000/RPC2`, false)).toBeNull(); // a private deployment may call loopback
    expect(urlProblem(`http://[${metadata}]/`, false)).toMatch(/stands for 169\.254\.169\.254\) is a cloud metadata address/);
  });
  it('an embedded public address is fine', () => {
    for (const ip of ['64:ff9b::808:808', '2002:808:808::1', '::ffff:0:8.8.8.8'])
      expect(urlProblem(`http://[${ip}]/`, true), ip).toBeNull();
  });
});

describe('cloud metadata services', () => {
  it.each([
    ['168.63.129.16', 'Azure WireServer (a public address)'],
    ['169.254.169.254', 'AWS, Azure, Google, Oracle, OpenStack IMDS'],
    ['[fd00:ec2::254]', 'AWS IMDS over IPv6'],
    ['169.254.170.2', 'AWS ECS task metadata'],
    ['[fd00:ec2::23]', 'AWS EKS pod identity over IPv6'],
    ['100.100.100.200', 'Alibaba Cloud'],
    ['192.0.0.192', 'Oracle Cloud (older)'],
    ['metadata.google.internal', 'Google'],
    ['metadata.goog', 'Google'],
    ['METADATA.google.internal.', 'Google, any case, fully qualified'],
    ['metadata.tencentyun.com', 'Tencent'],
  ])('%s (%s) is refused on every deployment', (host) => {
    expect(urlProblem(`http://${host}/latest/meta-data/`, false)).toMatch(/cloud metadata address/);
    expect(hostProblem(host, false)).toMatch(/cloud metadata address/);
  });
  it('public addresses and names pass', () => {
    expect(urlProblem('http://93.184.216.34:8000/', true)).toBeNull();
    expect(urlProblem('http://annotator.example.org/RPC2', true)).toBeNull();
  });
});

describe.each(testDatabaseKinds())('a loopback server registered before publicUrlsOnly was turned on (%s)', (databaseKind) => {
  const started: TestMetaserver[] = [];
  const databases: Array<{ drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const m of started) await m.stop();
    for (const d of databases) await d.drop();
  });

  it('is refused by the setup check, by dispatch and by callbacks alike; no request reaches it', async () => {
    const target = await startFaultyServer({ kind: 'good' });
    servers.push(target);
    const database = await openTestDatabase(databaseKind);
    databases.push(database);
    // A private deployment: the loopback server is registered and checked.
    const before = await startTestMetaserver({ workers: false, database, config: { publicUrlsOnly: false } });
    await before.challenge('pol', { name: 'Policy', timeoutSeconds: 2, maxAttempts: 2, retryDelaySeconds: 0 });
    await before.articles('pol', [{ id: 'P1', text: 'BRCA1 (P38398).' }]);
    const token = (await before.team('Policy team')).token;
    const registered = await before.server('pol', token, { name: 'local', url: target.url });
    expect(registered.check.ok).toBe(true);
    const id = registered.id as number;
    await before.stop();
    const reached = target.requests;

    // The same installation, now public: the same server is refused everywhere.
    const after = await startTestMetaserver({ database, config: { publicUrlsOnly: true } });
    started.push(after);
    const refusal = `the server URL cannot be called: 127.0.0.1 is a loopback address, and this meta-server only calls public addresses; no request was made`;
    const checked = await after.request('POST', `/api/servers/${id}/check`, undefined, token);
    expect(checked.status).toBe(200);
    expect(checked.body.check).toMatchObject({ ok: false, reachable: false, outcome: 'connection', detail: refusal });

    await after.startServer(id, token);
    await waitFor('the refused delivery', async () => {
      const d = await after.database.db.query<{ state: string }>(`select state from deliveries where server_id = $1 and state = 'failed'`, [
        id,
      ]);
      return d.length === 1 ? true : undefined;
    });
    const attempts = await after.database.db.query<{ outcome: string; detail: string; bytes_sent: number }>(
      'select outcome, detail, bytes_sent from attempts where server_id = $1 order by n',
      [id],
    );
    expect(attempts.map((a) => [a.outcome, a.detail, a.bytes_sent])).toEqual([
      ['connection', refusal, 0],
      ['connection', refusal, 0],
    ]);

    const article = (await after.ctx.repos.articles.byOrganiserId((await after.ctx.repos.challenges.bySlug('pol'))!.id, 'P1'))!;
    const callback = await postCallback(after.ctx.repos.answers, { ...article, callbackUrl: `${target.url}callback` }, after.config);
    expect(callback).toMatchObject({ ok: false, refused: true });
    expect(callback.error).toMatch(/127\.0\.0\.1 is a loopback address/);

    expect(target.requests).toBe(reached);
  });
});
