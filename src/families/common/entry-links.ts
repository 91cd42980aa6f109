// Where pages link an identifier to: its entry in the database that issued it.

/** The UniProtKB entry of an accession. */
export const uniprotEntry = (accession: string): string => `https://www.uniprot.org/uniprotkb/${encodeURIComponent(accession)}/entry`;

/** The taxon's page in NCBI's Taxonomy Browser. */
export const taxonomyEntry = (taxid: number | string): string =>
  `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${encodeURIComponent(String(taxid))}`;
