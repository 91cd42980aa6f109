#!/usr/bin/env node
// The `metaserver` command. Runs the TypeScript sources directly (no build step),
// so a fresh clone works as soon as its dependencies are installed.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
