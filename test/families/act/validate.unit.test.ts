import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context, issues } from '../../tasks/helpers.ts';

const act = (interaction: unknown) => validateAnswer({ interaction }, context({ tasks: ['ACT'] }));

describe('ACT: interaction = [boolean, double]', () => {
  it('normalises a valid answer', () => {
    expect(act([true, 0.87])).toEqual({ result: { ACT: { relevant: true, confidence: 0.87 } }, errors: [], warnings: [] });
    expect(act([false, 1]).result.ACT).toEqual({ relevant: false, confidence: 1 });
  });

  it('accepts an int where the double is expected', () => {
    expect(act([true, 1]).errors).toEqual([]);
  });

  it.each([
    [[true], 'interaction: expected an array [boolean relevant, double confidence], got array of 1'],
    [[true, 0.5, 'x'], 'interaction: expected an array [boolean relevant, double confidence], got array of 3'],
    [{ relevant: true }, 'interaction: expected an array [boolean relevant, double confidence], got struct'],
    [[1, 0.5], 'interaction[0]: expected a boolean (relevant), got number 1'],
    [['true', 0.5], 'interaction[0]: expected a boolean (relevant), got string "true"'],
    [[true, '0.5'], 'interaction[1]: expected a double in (0,1], got string "0.5"'],
    [[true, 0], 'interaction[1]: 0 is not in (0,1]'],
    [[true, 1.0001], 'interaction[1]: 1.0001 is not in (0,1]'],
    [[true, -0.2], 'interaction[1]: -0.2 is not in (0,1]'],
    [[true, Number.NaN], 'interaction[1]: NaN is not in (0,1]'],
  ])('refuses %j', (value, message) => {
    const answer = act(value);
    expect(issues(answer.errors)).toEqual([message]);
    expect(answer.result.ACT).toBeUndefined();
  });
});
