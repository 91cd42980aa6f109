#!/usr/bin/env node
// The `metaserver` command. Runs the bundle `npm start` builds when it matches the sources
// (scripts/bundle.mjs), and otherwise the TypeScript sources directly through tsx (no build
// step), so a fresh clone works as soon as its dependencies are installed.
import { pathToFileURL } from 'node:url';
import { freshBundle } from '../scripts/bundle.mjs';

// Started by `npm start` with an IPC channel (scripts/bootstrap.mjs): when that parent dies,
// even by SIGKILL, the channel closes, and this process stops as on SIGTERM.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

const bundle = freshBundle();
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
