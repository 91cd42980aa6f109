// Loading the release indexes the families validate against (their `lookup`), once per
// process at start, from the settings that name them. A family without a configured index
// checks what it can without one (its `without` says what), as INT/IPT do without a
// UniProt release.

import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { FamilyLookups } from './family.ts';
import { ALL_FAMILIES } from './registry.ts';

export function loadFamilyLookups(config: Config, log: Logger): FamilyLookups {
  const lookups: Record<string, unknown> = {};
  for (const family of ALL_FAMILIES) {
    const spec = family.lookup;
    if (!spec) continue;
    const path = (config as unknown as Record<string, string>)[spec.setting];
    const env = family.settings?.[spec.setting]?.env ?? spec.setting;
    if (!path) {
      log.info(`no ${family.name} release index configured (${env}): ${spec.without}`);
      continue;
    }
    const started = Date.now();
    const index = spec.load(path);
    log.info({ task: family.name, release: spec.release(index), ms: Date.now() - started }, `${family.name} release index loaded`);
    lookups[family.name] = index;
  }
  return lookups;
}

/** What the health answer shows of them: each loaded index's release, by task. */
export function lookupReleases(lookups: FamilyLookups): Record<string, string> {
  return Object.fromEntries(ALL_FAMILIES.flatMap((f) => (f.lookup && lookups[f.name] !== undefined ? [[f.name, f.lookup.release(lookups[f.name])]] : [])));
}
