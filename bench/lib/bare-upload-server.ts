// The baselines of bench/upload.ts: bare node:http streaming each request body to a file, then removing it.
// With BARE_DURABLE=1 the file is fsynced before the answer, as the API does before its 201; without,
// the answer comes while the bytes are still in the page cache (and, removed at once, never reach the disk).
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.env.DATA_DIR ?? '/tmp';
const flush = process.env.BARE_DURABLE === '1';
let n = 0;
http
  .createServer(async (req, res) => {
    if (req.method !== 'POST') return res.end('ok');
    const file = path.join(dir, `bare-${process.pid}-${n++}`);
    try {
      await pipeline(req, createWriteStream(file, { highWaterMark: 1024 * 1024, flush }));
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    } finally {
      await rm(file, { force: true });
    }
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
