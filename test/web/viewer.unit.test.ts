// The annotation viewer's markup, built on the server: segments cut at code points, one
// mark per covered stretch naming its mentions, a class per entity type, one tab stop,
// database links, and a data block that no text can close.
import { describe, expect, it } from 'vitest';
import { buildViewer, mentionLink } from '../../src/web/viewer.ts';
import { serverLabels } from '../../src/web/pages/article.ts';

describe('buildViewer', () => {
  // 😀 is one code point and two UTF-16 units: offsets after it count it once.
  const text = '😀 BRCA1 binds TP53 </script>';
  const a = {
    label: 'tagger (A)',
    shown: true,
    mentions: [
      { start: 2, end: 7, text: 'BRCA1', type: 'protein' },
      { start: 14, end: 18, text: 'TP53', type: 'protein' },
    ],
  };
  const b = {
    label: 'tagger (B)',
    shown: true,
    mentions: [
      { start: 2, end: 7, text: 'BRCA1', type: 'protein' },
      { start: 14, end: 18, text: 'TP53', type: 'gene' },
      { start: 16, end: 18, text: '53', type: 'gene' },
    ],
  };
  const c = { label: 'Consensus', shown: false, consensus: true, mentions: [{ start: 2, end: 7, text: 'BRCA1', type: 'protein' }] };

  it('cuts the text at every mention boundary, in code points, and names the mentions covering each piece', () => {
    const v = buildViewer(text, [a, b, c]);
    const marks = [...v.text.value.matchAll(/<mark class="([^"]+)" data-m="([^"]+)"[^>]*>([^<]*)<\/mark>/g)].map((m) => [m[3], m[1], m[2]]);
    expect(marks).toEqual([
      ['BRCA1', 'ann t0', '0'],
      ['TP', 'ann tmix', '1 2'],
      ['53', 'ann tmix', '1 2 3'],
    ]);
    expect(v.text.value.replace(/<[^>]+>/g, '')).toBe('😀 BRCA1 binds TP53 &lt;/script&gt;');
    expect(v.types).toEqual(['protein', 'gene']);
    expect(v.typeCounts).toEqual([2, 2]);
    // One tab stop: the first mark.
    expect(v.text.value.match(/tabindex="0"/g)).toHaveLength(1);
    expect(v.text.value.indexOf('tabindex="0"')).toBeLessThan(v.text.value.indexOf('BRCA1'));
  });

  it('keeps its data block closed whatever the text holds, and lists who found each mention', () => {
    const v = buildViewer(text, [a, b, c]);
    expect(v.data.value.match(/<\/script>/g)).toHaveLength(1);
    const json = JSON.parse(/>(.*)<\/script>$/.exec(v.data.value)![1]);
    expect(json.sources).toEqual([
      { label: 'tagger (A)', consensus: false },
      { label: 'tagger (B)', consensus: false },
      { label: 'Consensus', consensus: true },
    ]);
    expect(json.mentions[0]).toEqual([2, 7, 0, [0, 1, 2], 'BRCA1', null, []]);
  });

  it('gives the panel each concept id with its database link (an unknown namespace as text) and who gave it', () => {
    const withIds = (source: typeof a, ids: string[][]) => ({
      ...source,
      mentions: source.mentions.map((m, i) => ({ ...m, ids: ids[i] })),
    });
    const v = buildViewer(text, [
      withIds(a, [['NCBIGene:672', 'MESH:D019398'], ['NCBIGene:7157']]),
      withIds(b, [['NCBIGene:672', 'LocalDB:x1'], [], []]),
      { ...c, mentions: [{ ...c.mentions[0], ids: ['NCBIGene:672'] }] },
    ]);
    const json = JSON.parse(/>(.*)<\/script>$/.exec(v.data.value)![1]);
    expect(json.mentions[0][6]).toEqual([
      ['NCBIGene:672', 'https://www.ncbi.nlm.nih.gov/gene/672', 'NCBI Gene', [0, 1, 2]],
      ['MESH:D019398', 'https://meshb.nlm.nih.gov/record/ui?ui=D019398', 'MeSH', [0]],
      ['LocalDB:x1', null, null, [1]],
    ]);
    // TP53 typed protein by A (with an id), gene by B (sent an empty list): two mentions, one id.
    expect(json.mentions[1][6]).toEqual([['NCBIGene:7157', 'https://www.ncbi.nlm.nih.gov/gene/7157', 'NCBI Gene', [0]]]);
    expect(json.mentions[2][6]).toEqual([]);
  });

  it('shows a mention only the hidden consensus found as plain, unfocusable text', () => {
    const v = buildViewer('BRCA1', [{ ...c, mentions: [{ start: 0, end: 5, text: 'BRCA1' }] }]);
    expect(v.text.value).toBe('<mark class="ann off" data-m="0" tabindex="-1">BRCA1</mark>');
    expect(v.types).toEqual(['untyped']);
  });

  it('ignores spans outside the text and leaves a text without mentions as it is', () => {
    expect(buildViewer('ab', [{ label: 's', shown: true, mentions: [{ start: 5, end: 9, text: 'x' }] }]).text.value).toBe('ab');
    expect(buildViewer('', []).text.value).toBe('');
    expect(buildViewer('a<b', []).text.value).toBe('a&lt;b');
  });

  it('links accessions to UniProt and taxids of taxon types to NCBI Taxonomy', () => {
    expect(mentionLink('P38398', 'protein')).toBe('https://www.uniprot.org/uniprotkb/P38398/entry');
    expect(mentionLink('9606', 'species')).toBe('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=9606');
    expect(mentionLink('9606', 'protein')).toBeUndefined();
    expect(mentionLink('BRCA1', 'protein')).toBeUndefined();
  });
});

describe('server labels', () => {
  it('always name the team, and add the id where two servers would still read alike', () => {
    const labels = serverLabels([
      { serverId: 1, name: 'live-1', team: 'A' },
      { serverId: 2, name: 'live-1', team: 'B' },
      { serverId: 3, name: 'x', team: 'C' },
      { serverId: 4, name: 'x', team: 'C' },
    ]);
    expect([...labels.values()]).toEqual(['live-1 (A)', 'live-1 (B)', 'x (C) #3', 'x (C) #4']);
  });
});
