// INT: interactor normalisation, `normalizations` = array of struct
// {dbid, dbname?, taxid?, confidence?, rank?, evidence?}, dbid a UniProt accession.

import { checkAccession, lookupAccessions, resolveAccession } from '../../tasks/accessions.ts';
import type { FieldSpec, Report } from '../../tasks/checks.ts';
import { keepRankedAnswer, readRankedAnswer, type RankedAnswerSpec } from '../common/ranked-answer.ts';
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

interface Fields {
  accession: string;
  taxid?: number;
  evidence?: string;
}

const SPEC: RankedAnswerSpec<Fields> = {
  key: KEY,
  shape: 'structs {dbid, dbname?, taxid?, confidence?, rank?, evidence?}',
  fields: FIELDS,
  noun: 'items',
  read(fields, path, report) {
    const dbid = typeof fields.dbid === 'string' ? checkAccession(fields.dbid, `${path}.dbid`, report) : undefined;
    if (typeof fields.dbname === 'string' && !UNIPROT_NAMES.has(fields.dbname.trim().toLowerCase())) {
      report.error(
        `${path}.dbname`,
        `${JSON.stringify(fields.dbname)} is not UniProt: dbid must be a UniProt accession (send dbname "UniProt" or leave it out)`,
      );
    }
    if (dbid === undefined) return undefined;
    return {
      fields: { accession: dbid, taxid: fields.taxid as number | undefined, evidence: fields.evidence as string | undefined },
      id: dbid,
      repeated: (first) => [`${path}.dbid`, `${dbid} is already given in ${KEY}[${first}]; give each accession once`],
    };
  },
};

export function validateInt(value: unknown, input: TaskInput, report: Report): NormalizationItem[] | undefined {
  const parsed = readRankedAnswer(value, SPEC, report);
  if (!parsed) return undefined;
  const found = lookupAccessions(
    parsed.map((item) => item.accession),
    input.accessions,
  );
  const distinct = keepRankedAnswer(
    parsed,
    SPEC,
    {
      resolve: (item, i) => {
        const accession = resolveAccession(item.accession, `${KEY}[${item.index}].dbid`, input.accessions, report, 'item', found?.[i]);
        return accession === undefined ? undefined : { ...item, accession };
      },
      identity: (item) => item.accession,
      field: 'dbid',
    },
    report,
  );
  return distinct.map((item) => ({
    accession: item.accession,
    rank: item.rank,
    ...(item.confidence !== undefined ? { confidence: item.confidence } : {}),
    ...(item.taxid !== undefined ? { taxid: item.taxid } : {}),
    ...(item.evidence !== undefined ? { evidence: item.evidence } : {}),
  }));
}
