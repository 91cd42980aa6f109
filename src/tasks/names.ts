// The task families as the floors below them know them: their names, and the settings they
// add to the configuration. Configuration, migrations and request schemas need these, and
// must not load the families (which stand on those floors) to get them.
//
// The families themselves are listed in src/families/registry.ts; this leaf repeats their
// names (and holds the settings a family declares). The registry checks the two agree when
// it loads — at start, and in test/families/seam.unit.test.ts — so a family added to the
// registry and not here (or the other way round) stops the meta-server with a message
// saying which.

/** The task names, in registry order. */
export const TASK_NAMES = ['ACT', 'INT', 'IPT', 'MENTION', 'COREF', 'TX', 'TOPIC', 'REL', 'CREL'] as const;

export type TaskName = (typeof TASK_NAMES)[number];

/** A setting a family adds to the configuration: a string (a file path), '' by default. */
export interface FamilySetting {
  env: string;
  description: string;
}

/** The settings each family adds (its `settings`, read from here), by task name. */
export const FAMILY_SETTINGS = {
  MENTION: {
    conceptIdLists: {
      env: 'METASERVER_CONCEPT_ID_LISTS',
      description:
        'Release lists of concept ids, comma-separated files: MeSH descriptor or supplementary files (XML or ASCII), NCBI gene_info files, or NS:accession lines. A mention id of a listed namespace missing from its list is a warning. Empty: ids are checked for form and namespace only.',
    },
  },
  TX: {
    taxonomyIndex: {
      env: 'METASERVER_TAXONOMY_INDEX',
      description:
        'An NCBI Taxonomy release index built with `metaserver taxonomy build`. Empty: TX taxids are checked to be positive integers only.',
    },
  },
} as const satisfies Partial<Record<TaskName, Record<string, FamilySetting>>>;

type Settings = typeof FAMILY_SETTINGS;

/** The configuration keys the families add. */
export type FamilySettingKey = { [T in keyof Settings]: keyof Settings[T] & string }[keyof Settings];
