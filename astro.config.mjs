// @ts-check
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { precompress } from './scripts/precompress.mjs';

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
        !page.includes('/dashboard') && !page.includes('/verify-email') && !page.includes('/reset-password'),
    }),
    precompress(),
  ],
  server: { host: '127.0.0.1', port: 4321 },
  vite: {
    server: { proxy: { '/api': `http://127.0.0.1:${apiPort}` } },
  },
});
