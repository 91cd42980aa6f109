import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exportBiocJson, exportBiocXml, importBiocJson, importBiocXml } from '../../src/families/formats.ts';
import { readBiocJson } from '../../src/formats/bioc-json.ts';
import { readBiocXml } from '../../src/formats/bioc-xml.ts';
import { FormatError } from '../../src/formats/common.ts';
import { articles, spanOf, TEXT_A } from './sample-articles.ts';

const dtd = fileURLToPath(new URL('../fixtures/bioc/BioC.dtd', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bioc-test-'));
// The export names "BioC.dtd" in its DOCTYPE, as BioC files do: keep a copy beside it.
copyFileSync(dtd, join(scratch, 'BioC.dtd'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function xmllint(file: string): { status: number | null; stderr: string } {
  const run = spawnSync('xmllint', ['--noout', '--dtdvalid', dtd, file], { encoding: 'utf8' });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error('xmllint is not installed: install libxml2-utils (Debian/Ubuntu) or libxml2 to run the BioC DTD validation test');
  }
  return { status: run.status, stderr: run.stderr };
}

describe('BioC XML', () => {
  const xml = exportBiocXml(articles, { date: '2024-05-01' });

  it('validates against the BioC DTD', () => {
    const file = join(scratch, 'export.xml');
    writeFileSync(file, xml);
    const result = xmllint(file);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the DTD check does reject an invalid collection', () => {
    const file = join(scratch, 'invalid.xml');
    writeFileSync(file, '<?xml version="1.0"?>\n<collection><source>x</source><document><id>1</id></document></collection>\n');
    expect(xmllint(file).status).not.toBe(0);
  });

  it('round-trips articles exactly, offsets in code points', () => {
    expect(importBiocXml(xml)).toEqual(articles);
  });

  it('declares the offset unit and cuts passages at blank lines', () => {
    const collection = readBiocXml(xml);
    expect(collection.key).toMatch(/Unicode code points/);
    expect(collection.infons['offset-unit']).toBe('code-point');
    const doc = collection.documents[0];
    expect(doc.passages.map((p) => [p.offset, p.text])).toEqual([
      [0, 'Binding of 😀 p53 to MDM2'],
      [spanOf(TEXT_A, 'The').start, 'The 𝛼-actinin protein binds p53 in cells.\r\nIt forms a complex & more <tags>.'],
      [spanOf(TEXT_A, 'It', 2).start, 'It binds MDM2 (𝛽2) too.'],
    ]);
    const p53 = doc.passages[0].annotations[0];
    expect(p53).toEqual({
      id: 'a1.1',
      infons: { server: 'server-1', task: 'MENTION', type: 'Protein', confidence: '0.9' },
      locations: [{ offset: 13, length: 3 }],
      text: 'p53',
    });
    expect(xml).toContain('&#13;');
  });

  it('refuses other XML and entity declarations', () => {
    expect(() => importBiocXml('<article/>')).toThrow(/a BioC file holds a <collection>/);
    expect(() => importBiocXml('<!DOCTYPE collection [<!ENTITY x "y">]><collection/>')).toThrow(FormatError);
  });
});

describe('BioC JSON', () => {
  const json = exportBiocJson(articles, { date: '2024-05-01' });

  it('round-trips articles exactly', () => {
    expect(importBiocJson(json)).toEqual(articles);
  });

  it('holds the same collection as the XML', () => {
    const fromXml = readBiocXml(exportBiocXml(articles, { date: '2024-05-01' }));
    expect(readBiocJson(json)).toEqual(fromXml);
    expect(JSON.parse(json).documents[0].passages[0].sentences).toEqual([]);
  });

  it('reports malformed input', () => {
    expect(() => importBiocJson('{')).toThrow(/not JSON/);
    expect(() => importBiocJson('{"documents":[{"id":"1","passages":[{"offset":-1}]}]}')).toThrow(/offset must be an integer/);
  });
});
