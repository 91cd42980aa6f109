// TOPIC in the family's own pieces: answers (`topics`) validated as dispatch does, against
// LitCovid's labels or the challenge's own; the label vote; online runs, their TSV export
// and the leaderboard's reading of them (gold, runs, corpus and columns of a challenge's
// own labels); `metaserver score TOPIC`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topic } from '../../../src/families/topic/index.ts';
import { LITCOVID_TOPICS } from '../../../src/families/topic/labels.ts';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context } from '../../tasks/helpers.ts';
import { score } from '../../support/score-cli.ts';

const validate = (topics: unknown, topicLabels?: string[]) =>
  validateAnswer({ topics }, context({ tasks: ['TOPIC'], ...(topicLabels ? { topicLabels } : {}) }));
// Two hallmarks of cancer (HoC), as a challenge of other labels would name them.
const HALLMARKS = ['Sustaining proliferative signaling', 'Evading growth suppressors'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'topic-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('TOPIC answers', () => {
  it('keeps labels of the set in the order sent, confidence optional; [] is an answer', () => {
    const answer = validate([{ label: 'Prevention', confidence: 0.8 }, { label: 'Case Report' }]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.TOPIC).toEqual([{ label: 'Prevention', confidence: 0.8 }, { label: 'Case Report' }]);
    expect(validate([]).result.TOPIC).toEqual([]);
  });

  it('refuses an unknown label, a label twice, a bad confidence and a wrong shape, each at its path', () => {
    const answer = validate([
      { label: 'Treatment' },
      { label: 'Vaccines' },
      { label: 'Treatment', confidence: 0.5 },
      { label: 'Diagnosis', confidence: 1.5 },
      'Mechanism',
      { confidence: 0.3 },
    ]);
    expect(answer.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'topics[1].label: "Vaccines" is not a label of this challenge (labels: Treatment, Diagnosis, Prevention, Mechanism, Transmission, Epidemic Forecasting, Case Report)',
      'topics[2].label: "Treatment" is already given in topics[0]; give each label once',
      'topics[3].confidence: 1.5 is not in (0,1]',
      'topics[4]: expected a struct, got string "Mechanism"',
      'topics[5].label: required field is missing',
    ]);
    expect(answer.result.TOPIC).toBeUndefined();
    expect(validate({ label: 'Treatment' }).errors).toEqual([
      { path: 'topics', message: 'expected an array of structs {label, confidence?}, got struct' },
    ]);
  });

  it("checks against the challenge's labels when it names them; none named: LitCovid's", () => {
    expect(validate([{ label: 'Evading growth suppressors' }], HALLMARKS).errors).toEqual([]);
    expect(validate([{ label: 'Treatment' }], HALLMARKS).errors[0].message).toBe(
      '"Treatment" is not a label of this challenge (labels: Sustaining proliferative signaling, Evading growth suppressors)',
    );
    expect(validate([{ label: 'Treatment' }], []).errors).toEqual([]);
  });
});

describe('the TOPIC vote', () => {
  it('keeps a label when its servers hold the threshold share of the weight; order by support, then confidence', () => {
    const vote = topic.consensus!.vote(
      [
        { serverId: 1, weight: 2, result: [{ label: 'Treatment', confidence: 0.9 }, { label: 'Mechanism' }] },
        { serverId: 2, weight: 1, result: [{ label: 'Mechanism', confidence: 0.4 }, { label: 'Diagnosis' }] },
        { serverId: 3, weight: 1, result: [] },
      ],
      0.5,
    );
    // Weight 4: Mechanism 3/4, Treatment 2/4 (passes 0.5), Diagnosis 1/4 (does not).
    expect(vote.total).toBe(4);
    expect(vote.items.map((i) => [i.label, i.share])).toEqual([
      ['Mechanism', 0.75],
      ['Treatment', 0.5],
    ]);
    expect(topic.consensus!.asResult(vote)).toEqual([
      { label: 'Mechanism', confidence: 0.75 },
      { label: 'Treatment', confidence: 0.5 },
    ]);
  });
});

describe('TOPIC online runs on the leaderboard', () => {
  const answers = [
    { doc: '2', value: [{ label: 'Treatment', confidence: 0.9 }, { label: 'Diagnosis' }] },
    { doc: '1', value: [] },
  ];

  it('exports an online run in the list form, which scores as the stored answers', () => {
    const run = topic.scoring.onlineRun(answers);
    const exported = topic.scoring.exportTsv!(run);
    expect(exported).toBe('2\tTreatment;Diagnosis\n1\t\n');
    const gold = topic.scoring.parseGold('PMID,label\n1,Case Report\n2,Treatment\n3,Mechanism\n');
    expect(gold).toMatchObject({ documents: 3, items: 3 });
    const online = topic.scoring.score(gold.gold, run, {}).metrics;
    const uploaded = topic.scoring.score(gold.gold, topic.scoring.parseRun(exported, 'rank,confidence').run, {}).metrics;
    expect(uploaded).toEqual(online);
    // Document 3 was not answered: it predicts nothing. Micro: 1 right of 2 predicted, 3 gold.
    expect(online).toMatchObject({ missing: 1, documents: 3, micro: { p: 1 / 2, r: 1 / 3 } });
  });
});

describe("a challenge's own labels on the leaderboard", () => {
  const ctx = { topicLabels: HALLMARKS };

  it('reads list-form gold and runs with them, refusing LitCovid labels there', () => {
    const gold = topic.scoring.parseGold('PMID,label\n1,Evading growth suppressors\n2,\n', ctx);
    expect(gold).toMatchObject({ documents: 2, items: 1, warnings: [] });
    const run = topic.scoring.parseRun(
      '1\tEvading growth suppressors;Sustaining proliferative signaling\n2\t\n',
      'rank,confidence',
      ctx,
    ).run;
    expect(topic.scoring.score(gold.gold, run, {}).metrics).toMatchObject({ micro: { p: 1 / 2, r: 1 } });
    expect(() => topic.scoring.parseGold('1,Treatment\n', ctx)).toThrow('unknown label "Treatment"');
    // Without a challenge's set (or with an empty one): LitCovid's.
    expect(() => topic.scoring.parseRun('1\tEvading growth suppressors\n', 'rank,confidence', { topicLabels: [] })).toThrow(
      'unknown label "Evading growth suppressors"',
    );
  });

  it("warns when a wide gold standard's header names other labels than the challenge's", () => {
    const wide = topic.scoring.parseGold(`PMID,${LITCOVID_TOPICS.join(',')}\n1,1,0,0,0,0,0,0\n`, ctx);
    expect(wide.warnings).toEqual([
      "the gold standard's labels (Treatment, Diagnosis, Prevention, Mechanism, Transmission, Epidemic Forecasting, Case Report) are not this challenge's (Sustaining proliferative signaling, Evading growth suppressors), which servers' answers are checked against; set the challenge's topicLabels to the gold standard's",
    ]);
    expect(topic.scoring.parseGold(`PMID,${[...HALLMARKS].reverse().join(',')}\n1,1,0\n`, ctx).warnings).toEqual([]);
  });

  it('takes corpus topics of its set, leaving the others out with a warning', () => {
    const doc = (id: string, labels: string[]) => ({
      id,
      annotations: labels.map((identifier) => ({ type: 'Topic', infons: { identifier } })),
    });
    const documents = [doc('1', ['Evading growth suppressors', 'Treatment']), doc('2', [])] as unknown as Parameters<
      NonNullable<typeof topic.scoring.corpus>['gold']
    >[0];
    expect(topic.scoring.corpus!.gold(documents, ctx)).toEqual({
      body: '1\tEvading growth suppressors\n2\t\n',
      warnings: ['1 topic(s) are not labels of this challenge and were left out ("Treatment")'],
    });
  });

  it("shows each of the gold standard's labels as an F1 column, in its order", () => {
    const columns = topic.web.leaderboard.columns as (figures: readonly string[]) => ReadonlyArray<readonly [string, string]>;
    const shown = columns([
      'micro.f',
      'perLabel.Evading growth suppressors.p',
      'perLabel.Evading growth suppressors.f',
      'perLabel.Sustaining proliferative signaling.f',
    ]);
    expect(shown.slice(0, 3)).toEqual([
      ['micro.p', 'micro P'],
      ['micro.r', 'micro R'],
      ['micro.f', 'micro F1'],
    ]);
    expect(shown.slice(15)).toEqual([
      ['perLabel.Evading growth suppressors.f', 'Evading growth suppressors F1'],
      ['perLabel.Sustaining proliferative signaling.f', 'Sustaining proliferative signaling F1'],
    ]);
  });
});

describe('metaserver score TOPIC', () => {
  it('reports runs[i].metrics.{macro,micro,instance}.{p,r,f} and per label, from either form', async () => {
    await writeFile(join(dir, 'gold.csv'), 'PMID,label\n10,Treatment;Mechanism\n11,Prevention\n');
    await writeFile(
      join(dir, 'wide.csv'),
      'PMID,Treatment,Diagnosis,Prevention,Mechanism,Transmission,Epidemic Forecasting,Case Report\n11,0,0,0.9,0,0,0,0\n10,0.8,0,0,0.2,0,0,0\n',
    );
    await writeFile(join(dir, 'list.tsv'), '10\tTreatment\n11\tPrevention\n');
    const { code, out, err } = await score('TOPIC', '--gold', join(dir, 'gold.csv'), join(dir, 'wide.csv'), join(dir, 'list.tsv'));
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.runs.map((r: { run: string }) => r.run)).toEqual(['wide', 'list']);
    for (const run of report.runs) {
      // 2 right of 2 predicted, 3 gold; Mechanism missed: its F 0 pulls the macro average of seven labels.
      expect(run.metrics.micro).toEqual({ p: 1, r: 2 / 3, f: 0.8 });
      expect(run.metrics.macro.r).toBeCloseTo(2 / 7, 15);
      expect(run.metrics.instance).toEqual({ p: 1, r: 0.75, f: 0.8571 });
      expect(run.metrics.perLabel.Mechanism).toEqual({ p: 0, r: 0, f: 0, support: 1 });
    }
  });

  it('refuses a run without every gold PMID (exit 1) and flags of other tasks (exit 2)', async () => {
    await writeFile(join(dir, 'short.tsv'), '10\tTreatment\n');
    const missing = await score('TOPIC', '--gold', join(dir, 'gold.csv'), join(dir, 'short.tsv'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("the run must have the gold standard's PMIDs, as the official script requires: 1 gold PMID missing (11)");
    const flag = await score('TOPIC', '--gold', join(dir, 'gold.csv'), '--cutoff', '3', join(dir, 'list.tsv'));
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('--cutoff does not apply to TOPIC');
  });
});
