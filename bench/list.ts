// GET /api/v1/uploads, paged, for a user with 10,000 items (BENCH_ITEMS) at 50 connections: req/s, p50 and p99
// of the first page and of a page from the middle of the list (by its cursor), each alternated with bare
// node:http answering the same bytes, which shows what this machine allows right now. Asked as the dashboard
// asks (a browser's Accept-Encoding). Before measuring, every page is walked once to check the paging: each
// item exactly once, newest first. BENCH_DATABASE_URL runs the server on PostgreSQL. A server that does not
// page (before `limit` and `cursor`, see BENCH_SERVER_DIR) answers the whole list to the first request: then
// that whole-list answer is what is measured, as the dashboard of the time asked for it. BENCH_LIST_WHOLE=<n>
// also measures the whole-list answer (`GET /uploads` with neither `limit` nor `cursor`) at n connections.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { NEXT_CURSOR_HEADER } from '../contract/uploads.ts';
import { multipartBody } from '../tests/fixtures/multipart-body.ts';
import { benchAccount } from './lib/bench-account.ts';
import { startApiServer, startChildServer } from './lib/child-server.ts';
import { benchAgent, expectOk, send } from './lib/client.ts';
import { databaseEnv, databaseLabel } from './lib/database.ts';
import { httpLoad, type LoadResult } from './lib/load.ts';
import { median } from './lib/median.ts';
import { pairedRounds } from './lib/paired-rounds.ts';
import { waitForIdle } from './lib/process-cpu.ts';

const items = Number(process.env.BENCH_ITEMS ?? 10_000);
const pageSize = Number(process.env.BENCH_PAGE ?? 100);
const seconds = Number(process.env.BENCH_SECONDS ?? 9);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// What Chrome sends with every fetch() of the dashboard.
const acceptEncoding = 'gzip, deflate, br, zstd';
// A real 1×1 PNG, so every item goes through the same checks as a user's upload.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
  'base64',
);
const agent = benchAgent(8);

const app = await startApiServer(18793, databaseEnv);
try {
  const token = await benchAccount(app.url, app.dataDir);
  const auth = { authorization: `Bearer ${token}` };
  const seedStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < items) {
        const index = next++;
        const form = multipartBody([
          { field: 'file', filename: `scan-${index}.png`, content: png, contentType: 'image/png' },
        ]);
        const answer = await send(agent, `${app.url}/api/v1/uploads`, {
          method: 'POST',
          headers: { ...auth, ...form.headers },
          body: form.payload,
        });
        expectOk(answer, `upload ${index}`);
      }
    }),
  );
  console.log(
    `list (${databaseLabel}): ${items} items uploaded in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`,
  );

  await waitForIdle(app.process.pid!);

  // Every page once: each item exactly once, and the cursor of the page in the middle.
  const seen = new Set<string>();
  let cursor: string | undefined;
  let middleCursor: string | undefined;
  do {
    const query = `limit=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await send(agent, `${app.url}/api/v1/uploads?${query}`, { headers: auth });
    const page = JSON.parse(expectOk(answer, 'list page').body.toString()) as { stored_filename: string }[];
    for (const item of page) seen.add(item.stored_filename);
    cursor = answer.headers[NEXT_CURSOR_HEADER];
    if (seen.size >= items / 2 && !middleCursor) middleCursor = cursor;
  } while (cursor);
  if (seen.size !== items) throw new Error(`paging listed ${seen.size} distinct items of ${items}`);

  // BENCH_LIST_WHOLE=<connections> also measures the whole list at that many connections: at 50, a paging
  // server's whole list of 10,000 items can take longer than a round to answer once.
  const wholeConnections = Number(process.env.BENCH_LIST_WHOLE ?? 0);
  const whole = (connections: number) => ({ label: `whole list, ${items} items`, query: '', connections });
  const pages = [
    ...(!middleCursor
      ? [whole(50)] // the server answered everything to the first request: it does not page
      : [
          { label: `first page, ${pageSize} of ${items} items`, query: `limit=${pageSize}`, connections: 50 },
          {
            label: `page in the middle, ${pageSize} of ${items} items`,
            query: `limit=${pageSize}&cursor=${encodeURIComponent(middleCursor)}`,
            connections: 50,
          },
        ]),
    ...(wholeConnections ? [whole(wholeConnections)] : []),
  ];
  const headers = { ...auth, 'accept-encoding': acceptEncoding };
  for (const [index, page] of pages.entries()) {
    const url = `${app.url}/api/v1/uploads${page.query ? `?${page.query}` : ''}`;
    // The exact answer, still compressed, saved for the baseline to send as it is.
    const answer = expectOk(await send(agent, url, { headers }), page.label);
    const bodyFile = path.join(app.dataDir, `list-${index}.body`);
    writeFileSync(bodyFile, answer.body);
    const encoding = answer.headers['content-encoding'];
    const bare = await startChildServer('bench/lib/bare-json-server.ts', 18794, '/', {
      BODY_FILE: bodyFile,
      ...(encoding ? { CONTENT_ENCODING: encoding } : {}),
    });
    try {
      const run = (target: string, duration: number, serverPid: number) =>
        httpLoad({ url: target, headers, connections: page.connections, seconds: duration, serverPid });
      const appPid = app.process.pid!;
      const barePid = bare.process.pid!;
      await run(url, 2, appPid); // warm-up
      await run(bare.url, 2, barePid);
      const results = await pairedRounds(rounds, {
        app: () => run(url, seconds / rounds, appPid),
        bare: () => run(bare.url, seconds / rounds, barePid),
      });
      const of = (side: 'app' | 'bare', pick: (r: LoadResult) => number) => median(results.map((r) => pick(r[side])));
      const line = (side: 'app' | 'bare') =>
        `${of(side, (r) => r.rate).toFixed(0)} req/s, p50 ${of(side, (r) => r.p50).toFixed(1)} ms, p99 ${of(side, (r) => r.p99).toFixed(1)} ms, server CPU ${of(side, (r) => r.serverCpuMs).toFixed(2)} ms per answer`;
      console.log(
        `list (${databaseLabel}), ${page.label}, ${(answer.body.length / 1024).toFixed(1)} KiB (${encoding ?? 'uncompressed'}), ${page.connections} connections, medians of ${rounds} alternated rounds`,
      );
      console.log(`  this server ${line('app')} (target p99 <= 20 ms)`);
      console.log(`  bare node:http with the same bytes ${line('bare')}`);
      const ratio = median(results.map((r) => r.app.rate / r.bare.rate));
      const p99Ratio = median(results.map((r) => r.app.p99 / r.bare.p99));
      console.log(
        `  ratio to bare node:http: req/s ${ratio.toFixed(3)}, p99 ${p99Ratio.toFixed(2)}× (medians of pairs)`,
      );
    } finally {
      await bare.stop();
    }
  }
} finally {
  await app.stop();
  await agent.close();
}
