import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { multipartBody } from '../fixtures/multipart-body.ts';

/** One operation of the OpenAPI document: its method, its path template and the body schema's field names. */
export interface Operation {
  method: string;
  path: string;
  bodyFields: string[];
}

/** Every operation of an OpenAPI document, plus the routes it leaves out (the reference and the static site). */
export function operationsOf(document: {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
}): Operation[] {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const schema = op.requestBody?.content?.['application/json']?.schema as
        { properties?: Record<string, unknown> } | undefined;
      return { method: method.toUpperCase(), path, bodyFields: Object.keys(schema?.properties ?? {}) };
    }),
  );
  const extra = ['/api/v1/openapi.json', '/api/v1/reference', '/', '/dashboard/', '/index.html', '/_astro/x.js'];
  return [...operations, ...extra.map((path) => ({ method: 'GET', path, bodyFields: [] }))];
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

/** A request to one of `operations`, with hostile path parameters, query, headers and body. */
export function apiRequest(
  operations: Operation[],
  context: { tokens: string[]; storedNames: string[] },
): fc.Arbitrary<InjectOptions> {
  return fc
    .record({
      operation: fc.constantFrom(...operations),
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), { freq: 5 }),
      params: fc.array(fc.oneof(pathSegment, fc.constantFrom(...context.storedNames)), { minLength: 4, maxLength: 4 }),
      query: fc.dictionary(
        fc.constantFrom('limit', 'cursor', 'slice', 'axis', 'deidentify', 'page', 'x', '__proto__'),
        fc.oneof(nastyText, fc.integer().map(String), fc.constantFrom('-1', '1e9', 'NaN', '[]')),
        { maxKeys: 3 },
      ),
      token: fc.option(fc.oneof(fc.constantFrom(...context.tokens), fc.stringMatching(/^[\x21-\x7e]{0,80}$/)), {
        freq: 4,
      }),
      body: fc.oneof(jsonBody([]), multipartAbuse, fc.constant(undefined)),
      typedBody: fc.boolean(),
      ip: fc.ipV4(),
    })
    .chain((r) => jsonBody(r.operation.bodyFields).map((fieldsBody) => ({ ...r, fieldsBody })))
    .map(({ operation, method, params, query, token, body, typedBody, fieldsBody, ip }) => {
      let i = 0;
      const url = operation.path.replace(/\{\w+\}/g, () => params[i++ % params.length]!);
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) search.append(key, String(value).slice(0, 4000));
      const chosen = typedBody && operation.bodyFields.length ? fieldsBody : body;
      const headers: Record<string, string> = { ...(chosen?.headers ?? {}) };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      return {
        method: (method ?? operation.method) as InjectOptions['method'],
        url: search.size ? `${url}?${search.toString()}` : url,
        headers,
        remoteAddress: ip,
        ...(chosen ? { payload: chosen.payload } : {}),
      } satisfies InjectOptions;
    });
}
