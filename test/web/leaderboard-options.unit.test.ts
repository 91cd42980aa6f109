// The leaderboard page's options: only those the task's family takes, the query string
// passed on to the API (known parameters only, unticked flags left out), and the sentence
// a table's caption gets for the options the API echoed.
import { describe, expect, it } from 'vitest';
import { leaderboardPageBody } from '../../src/web/pages/leaderboard.ts';
import { optionsSentence, scoreQueryString } from '../../src/web/pages/leaderboard-options.ts';

const fieldNames = (page: string) => [...page.matchAll(/<input [^>]*id="board-(\w+)" name="(\w+)"/g)].map((m) => m[2]);

describe('leaderboard options', () => {
  it('offers each task the options the scores route takes for it', () => {
    expect(fieldNames(leaderboardPageBody('c', 'INT').value)).toEqual(['cutoff', 'beta', 'all', 'ho', 'of', 'consensus']);
    expect(fieldNames(leaderboardPageBody('c', 'TX').value)).toEqual(['cutoff', 'beta', 'all', 'consensus']);
    expect(fieldNames(leaderboardPageBody('c', 'MENTION').value)).toEqual(['singleClass', 'significance', 'trials', 'consensus']);
    expect(fieldNames(leaderboardPageBody('c', 'COREF').value)).toEqual([]);
  });

  it('keeps the chosen values, and passes them to the fragment and the downloads', () => {
    const page = leaderboardPageBody('c', 'INT', { cutoff: '5', ho: '1', format: 'tsv', evil: '"><x>' }).value;
    expect(page).toContain('id="board-cutoff" name="cutoff" type="number" min="1" step="1" inputmode="decimal" value="5"');
    expect(page).toMatch(/id="board-ho" name="ho" value="1" checked/);
    expect(page).not.toMatch(/id="board-of" name="of" value="1" checked/);
    expect(page).toContain('data-fragment="/fragments/challenges/c/leaderboard/INT?cutoff=5&amp;ho=1"');
    expect(page).toContain('data-download="/api/challenges/c/scores/INT?cutoff=5&amp;ho=1&amp;format=tsv"');
    expect(page).not.toContain('evil');
  });

  it('builds query strings from known, non-empty, ticked parameters only', () => {
    expect(scoreQueryString({ cutoff: ' 10 ', all: '0', ho: 'false', of: 'true', beta: '', format: 'tsv' })).toBe('?cutoff=10&of=true');
    expect(scoreQueryString({})).toBe('');
  });

  it('says which options a table shows', () => {
    expect(optionsSentence({ cutoff: 5, ho: true, of: false })).toBe(' (first 5 results per document; homonym-ortholog mapping)');
    expect(optionsSentence({})).toBe('');
  });
});
