import { loadBuiltInCatalogue } from './src/testsuites/catalogue-io.ts';
import { FEATURE_SPECS, valuesOf } from './src/testsuites/feature-specs.ts';
const c = await loadBuiltInCatalogue();
console.log(c.entities.length, c.sentences.length);
for (const spec of FEATURE_SPECS) {
  const seen = new Map<string, number>();
  const pool = spec.scope === 'entity' ? c.entities.map(e => e.features) : c.sentences.map(s => s.features);
  for (const f of pool) for (const v of valuesOf(f[spec.key])) seen.set(v, (seen.get(v) ?? 0) + 1);
  const missing = (spec.values ?? []).filter(v => !seen.has(v));
  console.log(spec.key, JSON.stringify(Object.fromEntries(seen)).slice(0, 300), missing.length ? 'MISSING ' + missing.join(',') : '');
}
