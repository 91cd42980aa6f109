// REL: typed relations between given entities (DrugProt, BioCreative VII track 1), as
// stored and served.

/** A given entity as the article carries it (its `given` lines). */
export interface RelGivenEntity {
  id: string;
  type: string;
  start: number;
  end: number;
  text: string;
}

/** One relation of an answer; arg1 and arg2 are given entity ids. */
export interface RelItem {
  type: string;
  arg1: string;
  arg2: string;
  confidence?: number;
  rank?: number;
}

/**
 * The stored result: the relations, and the given entities they name (so that exports
 * and pages show each relation's two mentions without the article's given lines).
 */
export interface RelResult {
  relations: RelItem[];
  entities: RelGivenEntity[];
}

/** The consensus of one article: relations by (type, arg1, arg2), each with its share. */
export interface RelVote {
  items: Array<RelItem & { share: number; servers: number[] }>;
  entities: RelGivenEntity[];
}
