import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath } from './api-path.ts';

const compressedSuffixes = ['.br', '.gz'];

/** Every file of the built site, as URL path → path relative to dist. */
async function siteFiles(distDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || compressedSuffixes.some((s) => entry.name.endsWith(s))) continue;
    const relative = path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    files.set(`/${relative}`, relative);
    if (relative.endsWith('.html')) {
      const route = `/${relative.slice(0, -'.html'.length)}`.replace(/\/index$/, '') || '/';
      files.set(route, relative);
    }
  }
  return files;
}

function cacheControl(file: string): string {
  if (file.startsWith('_astro/')) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * Serves the built site from dist/ when it exists: known routes get their page, unknown dashboard routes
 * the dashboard shell (its router shows the not-found view) and anything else the 404 page, both with 404.
 * The file list is read once at start, so no request path ever reaches the file system unchecked.
 */
export default fp(async function staticSite(app: FastifyInstance) {
  const distDir = app.config.distDir;
  const available = existsSync(distDir);
  const files = available ? await siteFiles(distDir) : new Map<string, string>();
  if (available) {
    await app.register(fastifyStatic, {
      root: distDir,
      serve: false,
      preCompressed: true,
      cacheControl: false,
      etag: true,
      lastModified: true,
    });
  }

  const send = (reply: FastifyReply, file: string, status = 200) =>
    reply.code(status).header('cache-control', cacheControl(file)).sendFile(file);

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (isApiPath(url) || !available || !['GET', 'HEAD'].includes(request.method)) {
      return reply.code(404).send({ detail: 'Not found' });
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url).replace(/\/+$/, '') || '/';
    } catch {
      return reply.code(400).send({ detail: 'Bad request' });
    }
    const file = files.get(pathname);
    if (file) return send(reply, file);
    if (pathname.startsWith('/dashboard/') && files.has('/dashboard'))
      return send(reply, files.get('/dashboard')!, 404);
    if (files.has('/404')) return send(reply, files.get('/404')!, 404);
    return reply.code(404).send({ detail: 'Not found' });
  });
});
