// Writes docs/api-errors.md from the error catalogue (src/http/error-catalogue.ts):
//   npx tsx scripts/api-errors-doc.ts
// test/api/error-catalogue.test.ts fails while the file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { errorCatalogueMarkdown } from '../src/http/error-catalogue.ts';

writeFileSync(new URL('../docs/api-errors.md', import.meta.url), errorCatalogueMarkdown());
