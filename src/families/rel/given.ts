// The given entities of a REL article, read from its `given` text. Two forms are read,
// line by line: the DrugProt entities form `pmid<TAB>T1<TAB>CHEMICAL<TAB>start<TAB>end<TAB>text`
// (the corpus's own file, cut to the article) and the BioNLP standoff form
// `T1<TAB>CHEMICAL start end<TAB>text` that COREF's given proteins use. Lines of neither
// form are skipped: the article was accepted with them, and a server is sent them as they are.

import type { RelGivenEntity } from './types.ts';

const STANDOFF = /^(\S+)\t(\S+) (\d+) (\d+)\t(.*)$/;
const DRUGPROT = /^[^\t]*\t([^\t]+)\t([^\t]+)\t(\d+)\t(\d+)\t(.*)$/;

export function readGivenEntities(given: string | undefined): Map<string, RelGivenEntity> {
  const entities = new Map<string, RelGivenEntity>();
  for (const raw of (given ?? '').split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = DRUGPROT.exec(line) ?? STANDOFF.exec(line);
    if (!m) continue;
    const [, id, type, start, end, text] = m;
    if (!entities.has(id)) entities.set(id, { id, type, start: Number(start), end: Number(end), text });
  }
  return entities;
}
