// Loading the release indexes the families validate against (their `lookup`), once per
// process at start, from the settings that name them. A family without a configured index
// checks what it can without one (its `without` says what), as INT/IPT do without a
// UniProt release.

import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { FamilyLookups } from './family.ts';
import { ALL_FAMILIES } from './registry.ts';

/** The loaded indexes, and the files they came from (reading threads load their own from those). */
export interface LoadedLookups {
  loaded: FamilyLookups;
  files: Record<string, string>;
}

export function loadFamilyLookups(config: Config, log: Logger): LoadedLookups {
  const files: Record<string, string> = {};
  for (const family of ALL_FAMILIES) {
    const spec = family.lookup;
    if (!spec) continue;
    const path = (config as unknown as Record<string, string>)[spec.setting];
    const env = family.settings?.[spec.setting]?.env ?? spec.setting;
    if (path) files[family.name] = path;
    else log.info(`no ${family.name} release index configured (${env}): ${spec.without}`);
  }
  const started = Date.now();
  const loaded = loadLookupsFrom(files);
  for (const family of ALL_FAMILIES) {
    if (family.lookup && loaded[family.name] !== undefined) {
      log.info(
        { task: family.name, release: family.lookup.release(loaded[family.name]), ms: Date.now() - started },
        `${family.name} release index loaded`,
      );
    }
  }
  return { loaded, files };
}

/** Each family's index from its file, by task name. */
export function loadLookupsFrom(files: Readonly<Record<string, string>>): FamilyLookups {
  const lookups: Record<string, unknown> = {};
  for (const family of ALL_FAMILIES) {
    const path = files[family.name];
    if (family.lookup && path) lookups[family.name] = family.lookup.load(path);
  }
  return lookups;
}

/** What the health answer shows of them: each loaded index's release, by task. */
export function lookupReleases(lookups: FamilyLookups): Record<string, string> {
  return Object.fromEntries(
    ALL_FAMILIES.flatMap((f) => (f.lookup && lookups[f.name] !== undefined ? [[f.name, f.lookup.release(lookups[f.name])]] : [])),
  );
}
