// What /docs (swagger-ui, through @fastify/swagger-ui) is given so that it passes axe-core like
// the other pages: the site's title, icon and logo, a stylesheet with contrast fixes and a
// script that amends the attributes swagger-ui leaves out (see static/docs-a11y.js).
import { readFileSync } from 'node:fs';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

const read = (file: string) => readFileSync(new URL(`./static/${file}`, import.meta.url), 'utf8');

export function docsTheme(): Pick<FastifySwaggerUiOptions, 'logo' | 'theme'> {
  const icon = read('favicon.svg');
  return {
    logo: { type: 'image/svg+xml', content: icon, href: '/', target: '_self' },
    theme: {
      title: 'API · metaserver',
      css: [{ filename: 'docs-a11y.css', content: read('docs-a11y.css') }],
      js: [{ filename: 'docs-a11y.js', content: read('docs-a11y.js') }],
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: icon }],
    },
  };
}
