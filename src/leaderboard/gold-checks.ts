// The checks a gold standard gets beyond what the BC II.5 scorer reads, so that gold is held
// to the rules a server's answer is held to: each tab-separated line has exactly the columns
// of the task's gold form (`docid<TAB>accession`: an extra column is a mistake, not a comment
// the scorer may skip), every accession matches the UniProt pattern, and with a UniProt
// release loaded an accession the release does not hold, or holds as secondary, is named in
// a warning (a server's answer with it would be dropped or mapped, so that gold item could
// never be matched as written). The columns come from the family's `goldForm`.

import { ApiError } from '../http/api-error.ts';
import { forEachLine } from '../scoring/index.ts';
import { explainAccession } from '../uniprot/pattern.ts';
import { lookupAll, type AccessionLookup } from '../uniprot/index.ts';

/** At most this many release warnings are listed one by one; the rest are counted. */
const LISTED_WARNINGS = 20;

/** The gold form's columns, or null when the form is not tab-separated lines (JSON forms). */
function goldColumns(goldForm: string): string[] | null {
  return goldForm.includes('<TAB>') ? goldForm.split('<TAB>') : null;
}

/**
 * Checks a tab-separated gold body against its form; throws a 400 (invalid_input, with the
 * line) on the first line that breaks it, returns the release warnings otherwise.
 */
export function checkGoldLines(task: string, goldForm: string, text: string, release: AccessionLookup | null): string[] {
  const columns = goldColumns(goldForm);
  if (!columns) return [];
  const accessionColumns = columns.flatMap((name, i) => (name.startsWith('accession') ? [i] : []));
  const toLookUp: Array<{ accession: string; line: number }> = [];
  forEachLine(text, 'gold', (fields, line) => {
    if (fields.length !== columns.length) {
      refuse(
        task,
        line,
        `expected ${columns.length} tab-separated columns (${columns.join(', ')}), found ${fields.length}`,
        fields.length > columns.length
          ? 'remove the extra columns (gold lines carry no rank or confidence)'
          : 'separate the columns with TAB characters',
      );
    }
    for (const i of accessionColumns) {
      const problem = explainAccession(fields[i]);
      if (problem)
        refuse(task, line, `column ${i + 1} (${columns[i]}): ${problem}`, "gold items are UniProt accessions, as in a server's answer");
      toLookUp.push({ accession: fields[i], line });
    }
  });
  if (!release || toLookUp.length === 0) return [];
  const found = lookupAll(
    release,
    toLookUp.map((a) => a.accession),
  );
  const warnings: string[] = [];
  let more = 0;
  found.forEach((f, i) => {
    if (f.status === 'primary') return;
    const { accession, line } = toLookUp[i];
    const said =
      f.status === 'unknown'
        ? `line ${line}: ${accession} is not an accession of UniProt release ${release.release.name}; kept as written, but a server's answer with it is dropped, so it cannot be matched`
        : `line ${line}: ${accession} is a secondary accession in UniProt release ${release.release.name} (primary ${f.primaries.join(', ')}); kept as written, but answers are mapped to the primary, so it cannot be matched: write the primary`;
    if (warnings.length < LISTED_WARNINGS) warnings.push(said);
    else more++;
  });
  if (more > 0) warnings.push(`and ${more} more accessions that UniProt release ${release.release.name} does not hold as primary`);
  return warnings;
}

function refuse(task: string, line: number, reason: string, hint: string): never {
  throw new ApiError(
    'invalid_input',
    `the ${task} gold standard was not accepted at line ${line}: ${reason}; nothing was stored (the previous gold, if any, is kept)`,
    { file: 'gold', line, reason, hint },
  );
}
