// The baselines of the HTTP benchmarks: bare node:http answering the same JSON as the route measured,
// GET /api/v1/health's by default, or the bytes of the file BODY_FILE (a saved GET /api/v1/uploads), with
// CONTENT_ENCODING as their encoding when they were saved compressed.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const body = process.env.BODY_FILE
  ? readFileSync(process.env.BODY_FILE)
  : Buffer.from(JSON.stringify({ status: 'ok' }));
const encoding = process.env.CONTENT_ENCODING;
http
  .createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
