// Reading PubAnnotation documents as PubAnnotation and its annotators write them
// (test/fixtures/pubannotation/, sources in its README): every track's denotations, an
// untyped denotation kept as an untyped mention, each mention's text the text at its span.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importPubAnnotation, type PubAnnotationDocument } from '../../src/formats/pubannotation.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pubannotation/${name}`, import.meta.url), 'utf8');

describe('importPubAnnotation on real documents', () => {
  it('a PubTator document: six Disease mentions, each the text at its span', () => {
    const raw = fixture('pubtator-pmc7646410-passage.json');
    const doc = JSON.parse(raw) as PubAnnotationDocument;
    const mentions = importPubAnnotation(raw);
    expect(mentions).toHaveLength(6);
    for (const m of mentions) {
      expect(m.type).toBe('Disease');
      expect(m.text).toBe([...doc.text].slice(m.start, m.end).join(''));
    }
  });

  it("the multi-track form: both projects' denotations, in track order", () => {
    const mentions = importPubAnnotation(fixture('annotation-format-tracks.json'));
    expect(mentions.map((m) => [m.start, m.end, m.text])).toEqual([
      [16, 28, 'localization'],
      [32, 40, 'sulfated'],
      [64, 71, 'sulfate'],
      [86, 116, 'macular corneal dystrophy type'],
      [86, 118, 'macular corneal dystrophy type I'],
    ]);
  });

  it('"obj": null or no obj: an untyped mention; a non-string obj is refused, naming the denotation', () => {
    const doc = JSON.parse(fixture('pubtator-pmc7646410-passage.json')) as { denotations: Array<Record<string, unknown>> };
    doc.denotations[1].obj = null;
    delete doc.denotations[2].obj;
    const mentions = importPubAnnotation(doc as unknown as PubAnnotationDocument);
    expect(mentions.map((m) => m.type ?? null)).toEqual(['Disease', null, null, 'Disease', 'Disease', 'Disease']);
    doc.denotations[3].obj = 5;
    expect(() => importPubAnnotation(doc as unknown as PubAnnotationDocument)).toThrow(
      /denotations\[3\]: "obj" must be a string \(or null for an untyped mention\)/,
    );
    const tracks = JSON.parse(fixture('annotation-format-tracks.json')) as {
      tracks: Array<{ denotations: Array<Record<string, unknown>> }>;
    };
    tracks.tracks[1].denotations[0].span = { begin: 86, end: 400 };
    expect(() => importPubAnnotation(tracks as unknown as PubAnnotationDocument)).toThrow(
      /tracks\[1\]\.denotations\[0\]: span .* is not within the text \(119 code points\)/,
    );
  });
});
