// Gold standards without some of their documents (FamilyScoring.withoutDocuments): the
// shapes several families share.

/** A map keyed by document id, without the documents named. */
export function withoutKeys<V>(map: ReadonlyMap<string, V>, documents: ReadonlySet<string>): Map<string, V> {
  return new Map([...map].filter(([doc]) => !documents.has(doc)));
}

/** A set of document ids, without the documents named. */
export function withoutIds(ids: Iterable<string>, documents: ReadonlySet<string>): Set<string> {
  return new Set([...ids].filter((doc) => !documents.has(doc)));
}
