// CREL on a challenge's leaderboard: a BC5CDR-style gold standard uploaded as PubTator
// text (mention lines give the bare ids their namespace), an offline run of relation lines,
// BioRED's four settings worked out by hand; a gold standard with an id whose namespace
// cannot be told is refused with its line and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFigures, send } from '../../leaderboard/helpers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../../support/runtime.ts';

const ARTICLES = [
  { id: '354896', text: 'Lidocaine-induced cardiac asystole.' },
  { id: '26094', text: 'Methyl dopa and depression.' },
];
const GOLD = [
  '354896|t|Lidocaine-induced cardiac asystole.',
  '354896\t0\t9\tLidocaine\tChemical\tD008012',
  '354896\t18\t34\tcardiac asystole\tDisease\tD006323',
  '354896\tCID\tD008012\tD006323',
  '26094|t|Methyl dopa and depression.',
  '26094\tCID\tD008750\tD003866',
  '',
].join('\n');
// The run: the first relation written the other way round with MESH: ids (one pair), a
// wrong disease for the second (pair missed), and an Association on the first pair.
const RUN =
  '354896\tCID\tMESH:D006323\tMESH:D008012\n26094\tCID\tMESH:D008750\tMESH:D000001\n354896\tAssociation\tMESH:D008012\tMESH:D006323\tNovel\n';
// By hand. Pair: gold {A, B}, run {A, C} (the Association shares A) → TP 1, FP 1, FN 1.
// Pair+type: gold {A·CID, B·CID}, run {A·CID, C·CID, A·Association} → TP 1, FP 2, FN 1.
// Pair+novelty: gold {A·–, B·–}, run {A·–, C·–, A·Novel} → TP 1, FP 2, FN 1. All: as pair+type.
const half = { tp: 1, fp: 1, fn: 1, p: 1 / 2, r: 1 / 2, f: 1 / 2 };
const third = { tp: 1, fp: 2, fn: 1, p: 1 / 3, r: 1 / 2, f: 2 / 5 };

let ms: TestMetaserver;
let team: { id: number; token: string };

beforeAll(async () => {
  ms = await startTestMetaserver();
  await ms.challenge('cdr', { name: 'CDR', tasks: ['CREL'], timeoutSeconds: 10 });
  await ms.articles('cdr', ARTICLES);
  team = await ms.team('Relations team');
}, 60_000);

afterAll(async () => {
  await ms?.stop();
});

describe('the CREL leaderboard', () => {
  it('refuses a gold standard whose bare id no mention carries, naming the line, and stores nothing', async () => {
    const bad = await send(ms, 'PUT', '/api/challenges/cdr/gold/CREL', { body: '354896\tAssociation\t6331\tD1\n', token: ADMIN_TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/line 1/);
    expect(bad.text).toMatch(/has no namespace and no mention of document 354896 carries it/);
    const board = await send(ms, 'GET', '/api/challenges/cdr/scores/CREL', { token: ADMIN_TOKEN });
    expect(board.status).not.toBe(200);
  });

  it("scores an offline run with BioRED's four settings, worked out by hand", async () => {
    const gold = await send(ms, 'PUT', '/api/challenges/cdr/gold/CREL', { body: GOLD, token: ADMIN_TOKEN });
    expect(gold.json).toMatchObject({ task: 'CREL', documents: 2, items: 2, unknownDocuments: 0 });
    const run = await send(ms, 'POST', '/api/challenges/cdr/runs/CREL', { body: RUN, token: team.token });
    expect(run.status).toBe(201);
    const board = await send(ms, 'GET', '/api/challenges/cdr/scores/CREL', { token: ADMIN_TOKEN });
    expect(board.status).toBe(200);
    const row = board.json.runs.find((r: { kind: string }) => r.kind === 'R');
    expectFigures(row.metrics, { pair: half, pairType: third, pairNovelty: third, all: third });
  });
});
