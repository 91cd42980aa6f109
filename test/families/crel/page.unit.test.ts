// The article page's CREL view: each relation's type, its two concepts linked to their
// database, and every mention of them highlighted and named in the text.
import { describe, expect, it } from 'vitest';
import { articleFragment } from '../../../src/web/pages/article.ts';

const TEXT = 'Lidocaine-induced cardiac asystole.';
const RESULT = {
  relations: [{ type: 'CID', concept1: 'MESH:D006323', concept2: 'MESH:D008012', confidence: 0.5 }],
  mentions: [
    { start: 0, end: 9, text: 'Lidocaine', type: 'Chemical', ids: ['MESH:D008012'] },
    { start: 18, end: 34, text: 'cardiac asystole', type: 'Disease', ids: ['MESH:D006323'] },
  ],
};

describe('the CREL answer on the article page', () => {
  it('lists the relation with both concepts linked and their mentions marked', () => {
    const page = articleFragment({
      id: '1',
      organiserId: '354896',
      challenge: 'cdr',
      status: 'done',
      sourceFormat: 'text',
      text: TEXT,
      servers: [
        {
          serverId: 1,
          name: 's',
          team: 't',
          state: 'answered',
          attempts: 1,
          lastOutcome: 'ok',
          lastDetail: null,
          result: { CREL: RESULT },
        },
      ],
    }).toString();
    expect(page).toContain('CREL: relations between concepts');
    expect(page).toMatch(
      /<a href="[^"]*D006323[^"]*" rel="external">MESH:D006323<\/a>, <a href="[^"]*D008012[^"]*" rel="external">MESH:D008012<\/a>/,
    );
    expect(page).toContain('<mark class="item-arg" title="MESH:D008012 Chemical">Lidocaine</mark>');
    expect(page).toContain('<mark class="item-arg" title="MESH:D006323 Disease">cardiac asystole</mark>');
  });
});
