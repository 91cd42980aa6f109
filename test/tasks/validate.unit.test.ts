import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../src/families/validate.ts';
import { context, issues } from './helpers.ts';

describe('validateAnswer: the answer struct', () => {
  it.each([
    ['an array', [1, 2], 'array of 2'],
    ['a string', 'P12345', 'string "P12345"'],
    ['nil', null, 'nil'],
    ['a dateTime', new Date(0), 'dateTime'],
    ['base64', Buffer.from('x'), 'base64'],
  ])('refuses %s instead of a struct', (_what, value, shown) => {
    const answer = validateAnswer(value, context());
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0].path).toBe('(answer)');
    expect(answer.errors[0].message).toContain(shown);
    expect(answer.result).toEqual({});
  });

  it('accepts an empty struct: no result for any task', () => {
    const answer = validateAnswer({}, context());
    expect(answer).toEqual({ result: {}, errors: [], warnings: [] });
  });

  it('treats an absent key as no result, and an empty list as an empty result', () => {
    const answer = validateAnswer({ normalizations: [] }, context());
    expect(answer.errors).toEqual([]);
    expect(answer.result).toEqual({ INT: [] });
    expect('IPT' in answer.result).toBe(false);
  });

  it('ignores unknown keys with a warning', () => {
    const answer = validateAnswer({ interaction: [true, 0.5], genes: [] }, context());
    expect(answer.errors).toEqual([]);
    expect(answer.result).toEqual({ ACT: { relevant: true, confidence: 0.5 } });
    expect(issues(answer.warnings)).toEqual([expect.stringMatching(/^genes: unknown key ignored/)]);
  });

  it('ignores, with a warning, keys of tasks not asked of this server, even if invalid', () => {
    const answer = validateAnswer({ interaction: [true, 0.5], pairs: 'garbage' }, context({ tasks: ['ACT'] }));
    expect(answer.errors).toEqual([]);
    expect(answer.result).toEqual({ ACT: { relevant: true, confidence: 0.5 } });
    expect(issues(answer.warnings)).toEqual(['pairs: task IPT was not asked of this server; ignored']);
  });

  it('reads nil under a task key as no result, with a warning', () => {
    const answer = validateAnswer({ normalizations: null }, context());
    expect(answer.errors).toEqual([]);
    expect(answer.result).toEqual({});
    expect(answer.warnings[0].path).toBe('normalizations');
  });

  it('reports every error of every task, not just the first', () => {
    const answer = validateAnswer(
      {
        interaction: [1, 0.5],
        normalizations: [{ dbid: 'p12345' }, { dbid: 'P12345', confidence: 1.5 }],
        pairs: 'x',
      },
      context(),
    );
    expect(answer.errors.map((e) => e.path)).toEqual(['interaction[0]', 'normalizations[0].dbid', 'normalizations[1].confidence', 'pairs']);
    expect(answer.result).toEqual({});
  });

  it('keeps the results of valid tasks beside an invalid one (the answer is still invalid)', () => {
    const answer = validateAnswer({ interaction: [false, 1], pairs: 'x' }, context());
    expect(answer.errors).toHaveLength(1);
    expect(answer.result).toEqual({ ACT: { relevant: false, confidence: 1 } });
  });
});
