// TX: species, `taxons` = array of struct {taxid: int, confidence?: double, rank?: int}
// (the BCMS form), taxid an NCBI Taxonomy id. Ranks, confidences and repeats are checked
// as for INT. With a release index loaded: a merged id is mapped to the taxon it was
// merged into (warning), a deleted or unknown id is dropped (warning naming the release),
// and two items that became the same taxon keep the better-ranked one. Without an index
// only the integer is checked.

import { describe, type FieldSpec, type Report } from '../../tasks/checks.ts';
import { keepRankedAnswer, readRankedAnswer, type RankedAnswerSpec } from '../common/ranked-answer.ts';
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

interface Fields {
  taxid: number;
}

function checkTaxid(value: number, path: string, report: Report): number | undefined {
  if (value >= 1 && value <= MAX_TAXID) return value;
  report.error(path, `${describe(value)} is not an NCBI Taxonomy id (a positive int, at most ${MAX_TAXID})`);
  return undefined;
}

/** The taxon to store for a well-formed id, or undefined when the item is dropped (with a warning). */
function resolve(item: Fields, path: string, taxonomy: TaxonomyIndex, report: Report): number | undefined {
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

const SPEC: RankedAnswerSpec<Fields> = {
  key: TX_KEY,
  shape: 'structs {taxid, confidence?, rank?}',
  fields: FIELDS,
  noun: 'taxa',
  read(fields, path, report) {
    const taxid = typeof fields.taxid === 'number' ? checkTaxid(fields.taxid, `${path}.taxid`, report) : undefined;
    if (taxid === undefined) return undefined;
    return {
      fields: { taxid },
      id: taxid,
      repeated: (first) => [`${path}.taxid`, `${taxid} is already given in ${TX_KEY}[${first}]; give each taxon once`],
    };
  },
};

export function validateTx(value: unknown, _input: TaskInput, report: Report, taxonomy: TaxonomyIndex | null): TaxonItem[] | undefined {
  const parsed = readRankedAnswer(value, SPEC, report);
  if (!parsed) return undefined;
  const distinct = keepRankedAnswer(
    parsed,
    SPEC,
    {
      resolve: (item) => {
        const taxid = taxonomy ? resolve(item, `${TX_KEY}[${item.index}].taxid`, taxonomy, report) : item.taxid;
        return taxid === undefined ? undefined : { ...item, taxid };
      },
      identity: (item) => String(item.taxid),
      field: 'taxid',
      mapped: 'merged taxa',
    },
    report,
  );
  return distinct.map((item) => ({
    taxid: item.taxid,
    rank: item.rank,
    ...(item.confidence !== undefined ? { confidence: item.confidence } : {}),
  }));
}
