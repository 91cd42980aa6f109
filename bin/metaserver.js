#!/usr/bin/env node
// The `metaserver` command. Runs the bundle `npm start` builds when it matches the sources
// (scripts/bundle.mjs), and otherwise the TypeScript sources directly through tsx (no build
// step), so a fresh clone works as soon as its dependencies are installed.
import { pathToFileURL } from 'node:url';
import { bundleDir, freshBundle } from '../scripts/bundle.mjs';

// Started by `npm start` with an IPC channel (scripts/bootstrap.mjs): when that parent dies,
// even by SIGKILL, the channel closes, and this process stops as on SIGTERM.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

const bundle = freshBundle();
if (!bundle && process.env.METASERVER_BUNDLE_DIR && process.env.METASERVER_NO_BUNDLE !== '1') {
  // An installed build (the image sets METASERVER_BUNDLE_DIR) runs from its bundle only:
  // compiling every start through tsx would hide a broken build behind slow starts.
  console.error(
    `metaserver: no bundle matching the sources in ${bundleDir} (METASERVER_BUNDLE_DIR). Build it with \`node scripts/bundle.mjs\` (the image does at build time), or set METASERVER_NO_BUNDLE=1 to run the sources through tsx.`,
  );
  process.exit(1);
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
