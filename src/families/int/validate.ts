// INT: interactor normalisation, `normalizations` = array of struct
// {dbid, dbname?, taxid?, confidence?, rank?, evidence?}, dbid a UniProt accession.

import { checkAccession, keepBestRanked, lookupAccessions, resolveAccession } from '../../tasks/accessions.ts';
import { checkArray, checkConfidence, checkRank, checkStruct, checkUniqueRanks, type FieldSpec, type Report } from '../../tasks/checks.ts';
import { fillRanks } from '../../tasks/ranking.ts';
import type { NormalizationItem } from './types.ts';
import type { TaskInput } from '../family.ts';

const KEY = 'normalizations';

const FIELDS: Record<string, FieldSpec> = {
  dbid: { kind: 'string', required: true },
  dbname: { kind: 'string' },
  taxid: { kind: 'int' },
  confidence: { kind: 'double' },
  rank: { kind: 'int' },
  evidence: { kind: 'string' },
};

/** "UniProt" in any case; "UniProtKB" is the same database under its full name. */
const UNIPROT_NAMES = new Set(['uniprot', 'uniprotkb']);

interface Parsed {
  index: number;
  accession: string;
  rank?: number;
  confidence?: number;
  taxid?: number;
  evidence?: string;
}

export function validateInt(value: unknown, input: TaskInput, report: Report): NormalizationItem[] | undefined {
  const list = checkArray(value, KEY, 'structs {dbid, dbname?, taxid?, confidence?, rank?, evidence?}', report);
  if (!list) return undefined;
  const errorsBefore = report.errors.length;
  const parsed: Parsed[] = [];
  const ranks: (number | undefined)[] = [];
  const firstUse = new Map<string, number>();
  list.forEach((entry, index) => {
    const path = `${KEY}[${index}]`;
    const fields = checkStruct(entry, path, FIELDS, report);
    if (!fields) return;
    const dbid = typeof fields.dbid === 'string' ? checkAccession(fields.dbid, `${path}.dbid`, report) : undefined;
    if (typeof fields.dbname === 'string' && !UNIPROT_NAMES.has(fields.dbname.trim().toLowerCase())) {
      report.error(`${path}.dbname`, `${JSON.stringify(fields.dbname)} is not UniProt: dbid must be a UniProt accession (send dbname "UniProt" or leave it out)`);
    }
    const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
    const rank = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
    ranks[index] = rank;
    if (dbid === undefined) return;
    const first = firstUse.get(dbid);
    if (first !== undefined) report.error(`${path}.dbid`, `${dbid} is already given in ${KEY}[${first}]; give each accession once`);
    else firstUse.set(dbid, index);
    parsed.push({
      index,
      accession: dbid,
      rank,
      confidence,
      taxid: fields.taxid as number | undefined,
      evidence: fields.evidence as string | undefined,
    });
  });
  checkUniqueRanks(ranks, KEY, report);
  if (report.errors.length > errorsBefore) return undefined;

  const filled = fillRanks(parsed);
  if (filled.partial) report.warn(KEY, 'some items have a rank and others not: the unranked ones were ranked after them, by confidence then list order');
  const kept: (Parsed & { rank: number })[] = [];
  const found = lookupAccessions(parsed.map((item) => item.accession), input.accessions);
  parsed.forEach((item, i) => {
    const accession = resolveAccession(item.accession, `${KEY}[${item.index}].dbid`, input.accessions, report, 'item', found?.[i]);
    if (accession !== undefined) kept.push({ ...item, accession, rank: filled.ranks[i] });
  });
  const distinct = keepBestRanked(kept, (item) => item.accession, KEY, 'dbid', report);
  distinct.sort((x, y) => x.rank - y.rank);
  return distinct.map((item) => ({
    accession: item.accession,
    rank: item.rank,
    ...(item.confidence !== undefined ? { confidence: item.confidence } : {}),
    ...(item.taxid !== undefined ? { taxid: item.taxid } : {}),
    ...(item.evidence !== undefined ? { evidence: item.evidence } : {}),
  }));
}
