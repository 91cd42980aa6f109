// TX: a ranked list of NCBI Taxonomy ids per article, as stored and served.

export interface TaxonItem {
  /** An NCBI Taxonomy id (9606: Homo sapiens), current in the loaded release when one is. */
  taxid: number;
  rank: number;
  confidence?: number;
}
