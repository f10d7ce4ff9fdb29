// @ts-check
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';
import { precompress } from './scripts/precompress.mjs';

/** Astro integration: indexes the pages marked `data-pagefind-body` (the user guide) into dist/pagefind. */
function pagefindIndex() {
  return {
    name: 'pagefind',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const { createIndex, close } = await import('pagefind');
        const { index } = await createIndex({});
        const root = fileURLToPath(dir);
        await index.addDirectory({ path: root });
        await index.writeFiles({ outputPath: `${root}/pagefind` });
        await close();
      },
    },
  };
}

const apiPort = process.env.PORT ?? '8787';

export default defineConfig({
  site: process.env.PUBLIC_SITE_URL ?? 'http://127.0.0.1:8787',
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'auto' },
  integrations: [
    react(),
    mdx(),
    sitemap({
      filter: (page) =>
        !page.includes('/dashboard') &&
        !page.includes('/verify-email') &&
        !page.includes('/reset-password') &&
        !/\/404\/?$/.test(page),
    }),
    pagefindIndex(),
    precompress(),
  ],
  server: { host: '127.0.0.1', port: 4321 },
  vite: {
    server: { proxy: { '/api': `http://127.0.0.1:${apiPort}` } },
  },
});
