// CREL: relations between the concepts of a document (BC5CDR's chemical-induced disease,
// BioRED's eight types with novelty), as stored and served.

/** `Novel`: the relation is a finding of the article; `No`: background knowledge (BioRED). */
export type Novelty = 'Novel' | 'No';

export const NOVELTIES: readonly Novelty[] = ['Novel', 'No'];

/** One relation: two concept ids (stored form `NS:accession`, concept1 < concept2 by string order), a type. */
export interface CrelItem {
  type: string;
  concept1: string;
  concept2: string;
  novelty?: Novelty;
  confidence?: number;
  rank?: number;
}

/** A mention of the answer carrying one of the related concepts' ids, so pages and exports show it. */
export interface CrelMention {
  start: number;
  end: number;
  text: string;
  type?: string;
  ids: string[];
}

/** The stored result: the relations, and the answer's mentions that carry their concepts. */
export interface CrelResult {
  relations: CrelItem[];
  mentions: CrelMention[];
}

/** The consensus of one article: relations by (type, unordered pair), each with its share. */
export interface CrelVote {
  items: Array<CrelItem & { share: number; servers: number[] }>;
  mentions: CrelMention[];
}
