#!/usr/bin/env node
// The `metaserver` command. Runs the bundle `npm start` builds when it matches the sources
// (scripts/bundle.mjs), and otherwise the TypeScript sources directly through tsx (no build
// step), so a fresh clone works as soon as its dependencies are installed.
import { pathToFileURL } from 'node:url';
import { freshBundle } from '../scripts/bundle.mjs';

const bundle = freshBundle();
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
