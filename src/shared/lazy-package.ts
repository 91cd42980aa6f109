// A package loaded the first time it is needed rather than at start. The command line
// imports the task families at every start (their settings and commands), and with them
// the export formats; the XML libraries those use (fast-xml-parser, saxes: ~40 ms of a
// ~80 ms start) are needed only when a file is actually written or read.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `load()` requires the package on its first call and returns the same module after. */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
