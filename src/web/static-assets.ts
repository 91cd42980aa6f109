// The one stylesheet and the one script (with the annotation viewer's), and the site icon:
// read once at start and served with long cache headers. Their URLs carry a content hash,
// so a new version is fetched after an upgrade; the pages link them by those URLs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { StaticAssets } from './layout.ts';
import { HIDDEN } from './route-schemas.ts';

interface Asset {
  body: string;
  type: string;
  etag: string;
  url: string;
}

function load(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./static/${file}`, import.meta.url), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { body, type, etag: `"${hash}"`, url: `/static/${file}?v=${hash}` };
}

/** Serves the files under /static/ and the icon; answers the URLs the pages link them by. */
export function registerStaticAssets(app: FastifyInstance): StaticAssets {
  const assets = {
    'app.css': load('app.css', 'text/css; charset=utf-8'),
    'app.js': load('app.js', 'text/javascript; charset=utf-8'),
    'viewer.css': load('viewer.css', 'text/css; charset=utf-8'),
    'viewer.js': load('viewer.js', 'text/javascript; charset=utf-8'),
  };
  for (const [file, asset] of Object.entries(assets)) {
    app.get(`/static/${file}`, HIDDEN, async (request, reply) => {
      reply.header('etag', asset.etag).header('cache-control', 'public, max-age=86400').header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
      return reply.type(asset.type).send(asset.body);
    });
  }
  // The icon, also at /favicon.ico where browsers ask for it unprompted (swagger-ui's /docs
  // too): an SVG answered with its own type, which browsers read whatever the name says.
  const icon = load('favicon.svg', 'image/svg+xml');
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, HIDDEN, async (_request, reply) =>
      reply
        .header('etag', icon.etag)
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .type(icon.type)
        .send(icon.body),
    );
  }
  return {
    cssUrl: assets['app.css'].url,
    jsUrl: assets['app.js'].url,
    extraCss: [assets['viewer.css'].url],
    extraJs: [assets['viewer.js'].url],
    iconUrl: `/favicon.svg?v=${icon.etag.slice(1, -1)}`,
  };
}
