// The UniProt accession syntax (validation.md). The two alternatives are anchored as a
// whole: a naive `^A|B$` would anchor only the start of A and the end of B.

export const ACCESSION_PATTERN = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})$/;

export function isAccession(value: string): boolean {
  return ACCESSION_PATTERN.test(value);
}

/**
 * Why `value` is not an accession, or null when it is one. The messages name the usual
 * mistakes (isoform or version suffix, lower case) so a team knows what to send instead.
 */
export function explainAccession(value: string): string | null {
  if (ACCESSION_PATTERN.test(value)) return null;
  const shown = JSON.stringify(value);
  if (value === '') return 'empty string is not a UniProt accession';
  const isoform = /^(.+)-(\d+)$/.exec(value);
  if (isoform && ACCESSION_PATTERN.test(isoform[1])) {
    return `${shown} is an isoform identifier, not an accession: send the entry accession ${isoform[1]} without the -${isoform[2]} suffix`;
  }
  const version = /^(.+)\.(\d+)$/.exec(value);
  if (version && ACCESSION_PATTERN.test(version[1])) {
    return `${shown} carries a version suffix, not part of an accession: send ${version[1]} without .${version[2]}`;
  }
  if (ACCESSION_PATTERN.test(value.toUpperCase())) {
    return `${shown} is not a UniProt accession: accessions are upper case (${value.toUpperCase()})`;
  }
  if (value.trim() !== value && ACCESSION_PATTERN.test(value.trim())) {
    return `${shown} has surrounding white space`;
  }
  return `${shown} does not match the UniProt accession pattern (6 or 10 characters, e.g. P12345 or A0A023GPI8)`;
}
