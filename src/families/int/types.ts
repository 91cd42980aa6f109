// INT: a ranked list of UniProt accessions per article, as stored and served.

export interface NormalizationItem {
  accession: string;
  rank: number;
  confidence?: number;
  taxid?: number;
  evidence?: string;
}
