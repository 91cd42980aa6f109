// JSON text made elsewhere — a worker thread that read a big answer — travels to where JSON
// is written (the dispatch batch) as text and is spliced in as is: parsing it back into
// objects on the main thread, only to stringify them again, would cost the event loop the
// very time the thread saved (~50 ms per 10 MB).
import { randomUUID } from 'node:crypto';

export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with every RawJson inside written as its text. */
export function stringifyWithRaw(value: unknown): string {
  const raws: string[] = [];
  const mark = `raw-json-${randomUUID()}-`;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof RawJson)) return v;
    raws.push(v.text);
    return `${mark}${raws.length - 1}`;
  });
  if (raws.length === 0) return json;
  // Each mark is a JSON string of its own ("<mark>N"): replace the quoted mark, quotes included.
  return json.replace(new RegExp(`"${mark}(\\d+)"`, 'g'), (_m, i: string) => raws[Number(i)]);
}
