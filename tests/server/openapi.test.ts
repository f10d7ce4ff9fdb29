import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Every `app.get('/x', …)`-style route declared in the route files, as "METHOD /api/v1/x". */
async function declaredRoutes(): Promise<string[]> {
  const root = path.resolve('server/modules');
  const found: string[] = [];
  for (const entry of await readdir(root, { recursive: true })) {
    if (!entry.endsWith('.routes.ts')) continue;
    const source = await readFile(path.join(root, entry), 'utf8');
    for (const match of source.matchAll(/\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)) {
      found.push(`${match[1]!.toUpperCase()} /api/v1${match[2]!}`);
    }
  }
  return found;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const result = await new Validator().validate(res.json());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the server declares, with its path parameters', async () => {
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const listed = new Set(
      Object.entries(document.paths).flatMap(([route, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const declared = (await declaredRoutes()).filter((route) => !/\/(openapi\.json|reference)$/.test(route));
    expect(declared.length).toBeGreaterThan(30);
    expect(declared.filter((route) => !listed.has(route))).toEqual([]);
  });

  it('has a readable reference page that names every operation', async () => {
    const res = await t.app.inject({ url: '/api/v1/reference' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.body).toContain('POST /api/v1/uploads');
    expect(res.body).toContain('GET /api/v1/uploads/{stored_filename}/preview.png');
  });
});
