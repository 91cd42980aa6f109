// The scoring parsers' tests check the exact error a bad input raises.
import { expect } from 'vitest';
import { ScoringInputError } from '../../src/scoring/errors.ts';

/** Runs `parse` and returns the ScoringInputError it must throw. */
export function errorOf(parse: () => unknown): ScoringInputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ScoringInputError);
    return error as ScoringInputError;
  }
  throw new Error('expected a ScoringInputError');
}
