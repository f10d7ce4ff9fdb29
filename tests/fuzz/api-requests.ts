import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { multipartBody } from '../fixtures/multipart-body.ts';
import type { FuzzFixtures } from './fuzz-fixtures.ts';
import { FixtureValue, schemaValue, type FieldHints, type JsonSchema } from './schema-values.ts';

/** A path or query parameter of an operation, with its schema. */
export interface Parameter {
  in: 'path' | 'query';
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the OpenAPI document: its method, path template, parameters and JSON body schema. */
export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** Schema of the JSON body, when the operation takes one. */
  body?: JsonSchema;
  bodyFields: string[];
}

/** Routes that take multipart/form-data: the document describes their answers, not their bodies. */
const MULTIPART = new Set(['POST /api/v1/uploads', 'POST /api/v1/uploads/series']);

type DocumentOperation = {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
};

/** Every operation of an OpenAPI document, plus the routes it leaves out (the reference and the static site). */
export function operationsOf(document: { paths: Record<string, Record<string, DocumentOperation>> }): Operation[] {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): Operation => {
      const body = op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
      const parameters = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({
          in: p.in as Parameter['in'],
          name: p.name,
          required: p.in === 'path' || Boolean(p.required),
          schema: p.schema ?? {},
        }));
      return { method: method.toUpperCase(), path, parameters, body, bodyFields: Object.keys(body?.properties ?? {}) };
    }),
  );
  const extra = ['/api/v1/openapi.json', '/api/v1/reference', '/', '/dashboard/', '/index.html', '/_astro/x.js'];
  return [...operations, ...extra.map((path) => ({ method: 'GET', path, parameters: [], bodyFields: [] }))];
}

/** A request waiting for the live fixtures: it names real items only when it is sent, after earlier deletes. */
export type PlannedRequest = { arm: 'hostile' | 'valid'; build(fixtures: FuzzFixtures): InjectOptions };

/** Replaces every FixtureValue in `value` with the live value it names. */
function resolve(value: unknown, fixtures: FuzzFixtures): unknown {
  if (value instanceof FixtureValue) {
    const pool = value.kind === 'token' ? fixtures.tokens : (fixtures.values[value.kind] ?? []);
    return pool.length ? pool[value.n % pool.length] : 'none';
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, fixtures));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, fixtures)]));
  }
  return value;
}

const MB = 1024 * 1024;

/** Text meant to break things: NUL, lone and paired surrogates, control characters, very long runs. */
const nastyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '😀',
    '\u202e',
    '\r\n',
    "'; drop table users; --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '${7*7}',
    ' ',
    '',
  ),
  fc.constant('x'.repeat(MB + 10)),
  fc.integer({ min: 1, max: 70_000 }).map((n) => 'é'.repeat(n)),
);

/** Any JSON value, including wrong types for every field. */
const anyJson = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue(),
  nastyText,
  fc.constantFrom(null, true, 0, -1, 1e308, Number.MAX_SAFE_INTEGER, [], {}),
);

/** Path segments: ordinary names, traversal tricks, encodings that decode to NUL or lone surrogates. */
const pathSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '%2e%2e',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '%00',
    'a%00b.png',
    '%ED%A0%80',
    '%ff%fe',
    '%',
    '%zz',
    '.',
    'x'.repeat(5000),
    'CON',
    '%F0%9F%98%80',
    encodeURIComponent('\u0000'),
  ),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.uuid(),
  fc.stringMatching(/^[A-Za-z0-9_-]{20,60}$/),
);

/** A body as raw bytes: malformed JSON, JSON of the wrong shape, or the route's own fields with hostile values. */
function jsonBody(fields: string[]): fc.Arbitrary<{ payload: string | Buffer; headers: Record<string, string> }> {
  const typed = fields.length
    ? fc.record(Object.fromEntries(fields.map((f) => [f, anyJson])), { requiredKeys: [] })
    : fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 4 });
  const json = { 'content-type': 'application/json' };
  return fc.oneof(
    typed.map((value) => ({ payload: JSON.stringify(value), headers: json })),
    anyJson.map((value) => ({ payload: JSON.stringify(value) ?? 'null', headers: json })),
    fc.constantFrom('{', '{"email":', '[1,2', '{"a":1}}', 'nul', '\u0000', '{"__proto__":{"x":1}}', '').map((text) => ({
      payload: text,
      headers: json,
    })),
    fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ payload: Buffer.from(bytes), headers: json })),
    fc.string().map((text) => ({ payload: text, headers: { 'content-type': 'text/plain' } })),
    fc.string().map((text) => ({ payload: text, headers: { 'content-type': 'application/x-www-form-urlencoded' } })),
  );
}

/** Multipart bodies that break the rules: bad boundaries, truncation, extra files, odd names, random bytes. */
const multipartAbuse: fc.Arbitrary<{ payload: string | Buffer; headers: Record<string, string> }> = fc.oneof(
  fc
    .record({
      field: fc.constantFrom('file', 'other', '', '\u0000'),
      filename: fc.option(fc.oneof(nastyText, fc.constantFrom('a.png', 'x.dcm', 'y.nii.gz', '.png', 'a.exe'))),
      content: fc.uint8Array({ maxLength: 3000 }),
      copies: fc.integer({ min: 1, max: 3 }),
      cut: fc.option(fc.integer({ min: 0, max: 400 })),
    })
    .map(({ field, filename, content, copies, cut }) => {
      const part = { field, filename: filename ?? undefined, content: Buffer.from(content) };
      const body = multipartBody(Array.from({ length: copies }, () => part));
      const payload = cut === null ? body.payload : body.payload.subarray(0, cut);
      return { payload, headers: body.headers };
    }),
  fc.uint8Array({ maxLength: 3000 }).map((bytes) => ({
    payload: Buffer.from(bytes),
    headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
  })),
  fc
    .constantFrom(
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary="unterminated',
    )
    .map((type) => ({ payload: '--x\r\n\r\n', headers: { 'content-type': type } })),
);

/** The hostile arm: any method on any route, hostile path parameters, query, headers and body. */
export function hostileRequest(operations: Operation[]): fc.Arbitrary<PlannedRequest> {
  const realName = fc.nat().map((n) => new FixtureValue('storedName', n));
  return fc
    .record({
      operation: fc.constantFrom(...operations),
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), { freq: 5 }),
      params: fc.array(fc.oneof(pathSegment, realName), { minLength: 4, maxLength: 4 }),
      query: fc.dictionary(
        fc.constantFrom('limit', 'cursor', 'slice', 'axis', 'deidentify', 'page', 'x', '__proto__'),
        fc.oneof(nastyText, fc.integer().map(String), fc.constantFrom('-1', '1e9', 'NaN', '[]')),
        { maxKeys: 3 },
      ),
      token: fc.option(
        fc.oneof(
          fc.nat().map((n) => new FixtureValue('token', n)),
          fc.stringMatching(/^[\x21-\x7e]{0,80}$/),
        ),
        { freq: 4 },
      ),
      body: fc.oneof(jsonBody([]), multipartAbuse, fc.constant(undefined)),
      typedBody: fc.boolean(),
      ip: fc.ipV4(),
    })
    .chain((r) => jsonBody(r.operation.bodyFields).map((fieldsBody) => ({ ...r, fieldsBody })))
    .map(({ operation, method, params, query, token, body, typedBody, fieldsBody, ip }) => ({
      arm: 'hostile',
      build(fixtures) {
        let i = 0;
        const url = operation.path.replace(/\{\w+\}/g, () => String(resolve(params[i++ % params.length], fixtures)));
        const search = new URLSearchParams();
        for (const [key, value] of Object.entries(query)) search.append(key, String(value).slice(0, 4000));
        const chosen = typedBody && operation.bodyFields.length ? fieldsBody : body;
        const headers: Record<string, string> = { ...(chosen?.headers ?? {}) };
        if (token !== null) headers.authorization = `Bearer ${String(resolve(token, fixtures))}`;
        return {
          method: (method ?? operation.method) as InjectOptions['method'],
          url: search.size ? `${url}?${search.toString()}` : url,
          headers,
          remoteAddress: ip,
          ...(chosen ? { payload: chosen.payload } : {}),
        } satisfies InjectOptions;
      },
    }));
}

/** Which fixture table names the items of a path: the first pattern the path matches. */
const TABLES: [RegExp, string][] = [
  [/\/comments\/\{commentId\}/, 'comments'],
  [/\/share-links\/\{id\}|\/shared\/\{token\}/, 'shareLinks'],
  [/\/invites\/\{(inviteId|token)\}/, 'invites'],
  [/\/members\/\{userId\}/, 'members'],
  [/\/qc\/batches\/\{id\}/, 'batches'],
  [/\{stored_filename\}/, 'uploads'],
  [/\{workspaceId\}/, 'workspaces'],
  [/\{userId\}/, 'users'],
];

const fixtureValue = (kind: string) => fc.nat().map((n) => new FixtureValue(kind, n));

/** Body fields whose valid values are real: an account's e-mail and password, a member, an image, a comment. */
const HINTS: FieldHints = {
  email: (schema) =>
    fc.oneof(fixtureValue('email'), schemaValue({ ...schema, pattern: '^[a-z]{1,12}@example\\.org$' })),
  password: () =>
    fc.oneof(
      fixtureValue('password'),
      fc.stringMatching(/^[A-Za-z0-9]{10,20}$/).map((p) => `${p}-X9`),
    ),
  stored_filenames: () => fc.array(fixtureValue('storedName'), { minLength: 1, maxLength: 3 }),
  user_ids: () => fc.array(fixtureValue('userId'), { maxLength: 3 }),
  tier2_user_ids: () => fc.array(fixtureValue('userId'), { maxLength: 2 }),
  parent_id: () => fc.option(fixtureValue('commentId')),
};

/**
 * The valid arm: the operation's own method, signed in as a team member (mostly the admin), acting in the team
 * workspace, path parameters naming real items nine times in ten, a query and a JSON body valid against the
 * document's schemas (with one field made hostile one time in six), a real file for the upload routes.
 */
export function validRequest(operations: Operation[]): fc.Arbitrary<PlannedRequest> {
  return fc.constantFrom(...operations).chain((operation) => {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const queryParams = operation.parameters.filter((p) => p.in === 'query');
    const table = TABLES.find(([pattern]) => pattern.test(operation.path))?.[1];
    const body = operation.body ? schemaValue(operation.body, HINTS) : fc.constant(undefined);
    return fc
      .record({
        row: fc.option(fc.nat(), { freq: 10 }),
        generated: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, schemaValue(p.schema)]))),
        query: fc.record(
          Object.fromEntries(
            queryParams.map((p) => {
              const value = schemaValue(p.schema);
              // Optional parameters are left out three times in four, as most clients leave them out.
              return [p.name, p.required ? value : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, value)];
            }),
          ),
        ),
        body,
        spoiled: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, fc.record({ field: fc.nat(), value: anyJson })),
        person: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 4 })),
        inWorkspace: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, fc.constant(false)),
        file: fc.nat(),
        ip: fc.ipV4(),
      })
      .map((r): PlannedRequest => ({
        arm: 'valid',
        build(fixtures) {
          const rows = table ? fixtures.rows[table] : undefined;
          const row = r.row !== null && rows?.length ? rows[r.row % rows.length]! : {};
          const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(row[name] || String(r.generated[name])),
          );
          const search = new URLSearchParams();
          for (const [key, value] of Object.entries(r.query))
            if (value !== undefined) search.append(key, String(value));
          const headers: Record<string, string> = { authorization: `Bearer ${fixtures.tokens[r.person]}` };
          if (r.inWorkspace) headers[WORKSPACE_HEADER] = fixtures.workspaceId;
          let payload: string | Buffer | undefined;
          if (MULTIPART.has(`${operation.method} ${operation.path}`)) {
            const file = fixtures.files[r.file % fixtures.files.length]!;
            const multipart = multipartBody([{ field: 'file', filename: file.name, content: file.bytes }]);
            Object.assign(headers, multipart.headers);
            payload = multipart.payload;
          } else if (r.body !== undefined) {
            const value = resolve(r.body, fixtures);
            if (r.spoiled && value && typeof value === 'object' && !Array.isArray(value)) {
              const keys = operation.bodyFields;
              if (keys.length)
                (value as Record<string, unknown>)[keys[r.spoiled.field % keys.length]!] = r.spoiled.value;
            }
            headers['content-type'] = 'application/json';
            payload = JSON.stringify(value) ?? 'null';
          }
          return {
            method: operation.method as InjectOptions['method'],
            url: search.size ? `${url}?${search.toString()}` : url,
            headers,
            remoteAddress: r.ip,
            ...(payload !== undefined ? { payload } : {}),
          } satisfies InjectOptions;
        },
      }));
  });
}

/** The mix a fuzz run sends: the hostile arm and the valid arm in equal measure. */
export function apiRequest(operations: Operation[]): fc.Arbitrary<PlannedRequest> {
  return fc.oneof(hostileRequest(operations), validRequest(operations));
}
