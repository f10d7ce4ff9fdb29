import { createHash } from 'node:crypto';

/** The parts of an OpenAPI 3 document the page shows. */
interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111}
h2{font-family:ui-monospace,monospace;font-size:1.05rem;border-top:1px solid #ccc;padding-top:1rem}
pre{background:#f4f4f4;padding:.5rem;overflow:auto;font-size:.85rem}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}`;

/** The Content-Security-Policy of the page: nothing runs, and only its own style applies. */
export const REFERENCE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'`;

const schemaBlock = (schema: unknown) =>
  schema === undefined ? '' : `<pre>${escape(JSON.stringify(schema, null, 2))}</pre>`;

function operation(method: string, path: string, op: Operation): string {
  const parts = [
    `<h2 id="${escape(`${method}-${path}`)}">${method.toUpperCase()} /${escape(path.replace(/^\//, ''))}</h2>`,
  ];
  if (op.summary) parts.push(`<p>${escape(op.summary)}</p>`);
  if (op.description) parts.push(`<p>${escape(op.description)}</p>`);
  if (op.parameters?.length) {
    const rows = op.parameters
      .map(
        (p) =>
          `<tr><td>${escape(p.name)}</td><td>${escape(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${escape(p.description ?? '')}</td></tr>`,
      )
      .join('');
    parts.push(`<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Meaning</th></tr>${rows}</table>`);
  }
  const body = op.requestBody?.content;
  if (body) {
    for (const [type, { schema }] of Object.entries(body))
      parts.push(`<h3>Body (${escape(type)})</h3>${schemaBlock(schema)}`);
  }
  for (const [code, answer] of Object.entries(op.responses ?? {})) {
    const schema = Object.values(answer.content ?? {})[0]?.schema;
    parts.push(`<h3>${escape(code)} ${escape(answer.description ?? '')}</h3>${schemaBlock(schema)}`);
  }
  return parts.join('\n');
}

/** The API reference as one HTML page: every path and method of `document`, with parameters and answers. */
export function renderReference(document: OpenApiDocument): string {
  const entries = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const index = entries
    .map(
      ({ path, method }) =>
        `<li><a href="#${escape(`${method}-${path}`)}">${method.toUpperCase()} ${escape(path)}</a></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} reference</title><style>${STYLE}</style></head><body><main>
<h1>${escape(document.info.title)} reference</h1><p>${escape(document.info.description ?? '')} The machine-readable document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<nav aria-label="Operations"><ul>${index}</ul></nav>
${entries.map(({ path, method, op }) => operation(method, path, op)).join('\n')}
</main></body></html>`;
}
