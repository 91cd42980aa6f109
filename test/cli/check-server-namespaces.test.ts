// metaserver check-server --mention-namespaces: the challenge's namespaces per mention type,
// as the setup check and dispatch apply them, on a team's own machine.
import { describe, expect, it } from 'vitest';
import { parseMentionNamespaces, runCheckServerCommand } from '../../src/cli/check-server.ts';
import { startFaultyServer } from '../support/faulty-servers.ts';

describe('check-server --mention-namespaces', () => {
  it('reads TYPE=NS;NS pairs, namespaces in any spelling, and refuses what is not one', () => {
    expect(parseMentionNamespaces('Chemical=MESH, Disease=mesh;OMIM,*=NCBI Gene')).toEqual({
      Chemical: ['MESH'],
      Disease: ['MESH', 'OMIM'],
      '*': ['NCBIGene'],
    });
    for (const bad of ['Chemical', 'Chemical=', '=MESH', 'a=b=c'])
      expect(() => parseMentionNamespaces(bad)).toThrow(
        /is not TYPE=NS;NS: give each entity type its namespaces, as Chemical=MESH,Disease=MESH;OMIM/,
      );
  });

  it('judges the ids of the answers against them', async () => {
    // Every article's first character, as a protein with an NCBI Gene id.
    const server = await startFaultyServer({
      kind: 'custom',
      handler: (text: string) => ({ mentions: [{ offset: 0, mention: [...text][0], type: 'protein', ids: ['NCBIGene:7157'] }] }),
    });
    try {
      const check = async (...flags: string[]) => {
        const lines: string[] = [];
        const code = await runCheckServerCommand([server.url, '--tasks', 'MENTION', '--json', ...flags], (line) => lines.push(line));
        return { code, articles: (JSON.parse(lines.join('\n')) as { articles: Array<{ outcome: string; detail?: string }> }).articles };
      };
      expect((await check()).code).toBe(0);
      expect((await check('--mention-namespaces', 'protein=NCBIGene')).code).toBe(0);
      const strict = await check('--mention-namespaces', '*=MESH');
      expect(strict.code).toBe(1);
      expect(strict.articles[0]).toMatchObject({ outcome: 'invalid' });
      expect(strict.articles[0].detail).toContain(
        'mentions[0].ids[0]: namespace NCBIGene ("NCBIGene:7157") is not accepted for "protein" mentions in this challenge (accepted: MESH)',
      );
    } finally {
      await server.close();
    }
  });
});
