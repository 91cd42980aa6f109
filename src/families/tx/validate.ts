// TX: species, `taxons` = array of struct {taxid: int, confidence?: double, rank?: int}
// (the BCMS form), taxid an NCBI Taxonomy id. Ranks, confidences and repeats are checked
// as for INT. With a release index loaded: a merged id is mapped to the taxon it was
// merged into (warning), a deleted or unknown id is dropped (warning naming the release),
// and two items that became the same taxon keep the better-ranked one. Without an index
// only the integer is checked.

import { keepBestRanked } from '../../tasks/accessions.ts';
import { checkArray, checkConfidence, checkRank, checkStruct, checkUniqueRanks, describe, type FieldSpec, type Report } from '../../tasks/checks.ts';
import { fillRanks } from '../../tasks/ranking.ts';
import type { TaskInput } from '../family.ts';
import { MAX_TAXID } from './build.ts';
import type { TaxonomyIndex } from './taxonomy.ts';
import type { TaxonItem } from './types.ts';

export const TX_KEY = 'taxons';

const FIELDS: Record<string, FieldSpec> = {
  taxid: { kind: 'int', required: true },
  confidence: { kind: 'double' },
  rank: { kind: 'int' },
};

interface Parsed {
  index: number;
  taxid: number;
  rank?: number;
  confidence?: number;
}

function checkTaxid(value: number, path: string, report: Report): number | undefined {
  if (value >= 1 && value <= MAX_TAXID) return value;
  report.error(path, `${describe(value)} is not an NCBI Taxonomy id (a positive int, at most ${MAX_TAXID})`);
  return undefined;
}

/** The taxon to store for a well-formed id, or undefined when the item is dropped (with a warning). */
function resolve(item: Parsed, path: string, taxonomy: TaxonomyIndex, report: Report): number | undefined {
  const found = taxonomy.lookup(item.taxid);
  const release = `NCBI Taxonomy release ${taxonomy.release.name}`;
  switch (found.status) {
    case 'current':
      return item.taxid;
    case 'merged':
      report.warn(path, `${item.taxid} was merged into ${found.into} in ${release}; mapped to ${found.into}`);
      return found.into;
    case 'deleted':
      report.warn(path, `${item.taxid} was deleted from ${release}; item dropped`);
      return undefined;
    case 'unknown':
      report.warn(path, `${item.taxid} is not a taxon of ${release} (neither current, merged nor deleted); item dropped`);
      return undefined;
  }
}

export function validateTx(value: unknown, _input: TaskInput, report: Report, taxonomy: TaxonomyIndex | null): TaxonItem[] | undefined {
  const list = checkArray(value, TX_KEY, 'structs {taxid, confidence?, rank?}', report);
  if (!list) return undefined;
  const errorsBefore = report.errors.length;
  const parsed: Parsed[] = [];
  const ranks: (number | undefined)[] = [];
  const firstUse = new Map<number, number>();
  list.forEach((entry, index) => {
    const path = `${TX_KEY}[${index}]`;
    const fields = checkStruct(entry, path, FIELDS, report);
    if (!fields) return;
    const taxid = typeof fields.taxid === 'number' ? checkTaxid(fields.taxid, `${path}.taxid`, report) : undefined;
    const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
    const rank = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
    ranks[index] = rank;
    if (taxid === undefined) return;
    const first = firstUse.get(taxid);
    if (first !== undefined) report.error(`${path}.taxid`, `${taxid} is already given in ${TX_KEY}[${first}]; give each taxon once`);
    else firstUse.set(taxid, index);
    parsed.push({ index, taxid, rank, confidence });
  });
  checkUniqueRanks(ranks, TX_KEY, report);
  if (report.errors.length > errorsBefore) return undefined;

  const filled = fillRanks(parsed);
  if (filled.partial) report.warn(TX_KEY, 'some taxa have a rank and others not: the unranked ones were ranked after them, by confidence then list order');
  const kept: (Parsed & { rank: number })[] = [];
  parsed.forEach((item, i) => {
    const taxid = taxonomy ? resolve(item, `${TX_KEY}[${item.index}].taxid`, taxonomy, report) : item.taxid;
    if (taxid !== undefined) kept.push({ ...item, taxid, rank: filled.ranks[i]! });
  });
  const distinct = keepBestRanked(kept, (item) => String(item.taxid), TX_KEY, 'taxid', report, 'merged taxa');
  distinct.sort((x, y) => x.rank - y.rank);
  return distinct.map((item) => ({ taxid: item.taxid, rank: item.rank, ...(item.confidence !== undefined ? { confidence: item.confidence } : {}) }));
}
