// The LitCovid track's own sample files (test/fixtures/litcovid), scored by metaserver, against
// the output the track's README prints for them: the classification_report table line for
// line, and the script's instance-based means as Python prints them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LITCOVID_TOPICS } from '../../../src/families/topic/labels.ts';
import { officialReport, readTopics, scoreTopics } from '../../../src/scoring/topic.ts';
import { score } from '../../support/score-cli.ts';

const DATA = join(import.meta.dirname, '../../fixtures/litcovid');
const GOLD = join(DATA, 'goldstandard_label_samples.csv');
const PREDICTION = join(DATA, 'prediction_label_samples.csv');

/** "You should get the following output:" (the track's README), after "label-based measures...". */
const PRINTED_REPORT = [
  '                      precision    recall  f1-score   support',
  '',
  '           Treatment     0.9526    0.8142    0.8780      1087',
  '           Diagnosis     0.8895    0.6483    0.7500       472',
  '          Prevention     0.9386    0.9078    0.9230      1280',
  '           Mechanism     0.9180    0.7780    0.8422       518',
  '        Transmission     0.8955    0.7061    0.7896       279',
  'Epidemic Forecasting     0.9328    0.6236    0.7475       178',
  '         Case Report     0.8444    0.7600    0.8000        50',
  '',
  '           micro avg     0.9304    0.8028    0.8619      3864',
  '           macro avg     0.9102    0.7483    0.8186      3864',
  '        weighted avg     0.9292    0.8028    0.8590      3864',
  '         samples avg     0.8923    0.8330    0.8435      3864',
];
/** "instance-based measures": mean precision, mean recall, mean f1, as Python prints the rounded floats. */
const PRINTED_INSTANCE = ['0.8923', '0.833', '0.8616'];

describe("the LitCovid track's sample files", () => {
  it('give the label-based table the track prints, line for line', () => {
    const read = (path: string, role: 'gold' | 'run') =>
      readTopics(readFileSync(path, 'utf8'), { role, labels: LITCOVID_TOPICS, file: path });
    const scored = scoreTopics(read(GOLD, 'gold'), read(PREDICTION, 'run'), { missing: 'refuse' });
    expect(officialReport(scored, LITCOVID_TOPICS).trimEnd().split('\n')).toEqual(PRINTED_REPORT);
    expect([scored.instance.p, scored.instance.r, scored.instance.f].map(String)).toEqual(PRINTED_INSTANCE);
  });

  it('give the same figures through metaserver score TOPIC', async () => {
    const { code, out } = await score('TOPIC', '--gold', GOLD, PREDICTION);
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    const four = (x: number) => x.toFixed(4);
    expect([metrics.micro.p, metrics.micro.r, metrics.micro.f].map(four)).toEqual(['0.9304', '0.8028', '0.8619']);
    expect([metrics.macro.p, metrics.macro.r, metrics.macro.f].map(four)).toEqual(['0.9102', '0.7483', '0.8186']);
    expect([metrics.instance.p, metrics.instance.r, metrics.instance.f].map(String)).toEqual(PRINTED_INSTANCE);
    expect(metrics.perLabel['Case Report'].support).toBe(50);
  });
});
