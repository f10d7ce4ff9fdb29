import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchAccount } from '../../bench/lib/bench-account.ts';
import { startChildServer, type ChildServer } from '../../bench/lib/child-server.ts';
import {
  deflatedDicomBomb,
  GIB,
  honestNiftiBomb,
  hugePng,
  hugeTiff,
  niftiBomb,
  nrrdBomb,
  zipBomb,
} from '../fixtures/decompression-bombs.ts';
import { multipartBody } from '../fixtures/multipart-body.ts';
import { phantomDicom, phantomNifti } from '../fixtures/upload-images.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Resident memory of a process, from /proc, in bytes. */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/**
 * Hostile files against the real server process: each is refused within a second with a `detail`,
 * while GET /health, asked every 20 ms meanwhile, keeps answering within 100 ms and the process's
 * resident memory grows by less than 256 MB.
 */
describe('decompression bombs against a running server', () => {
  let server: ChildServer;
  let token: string;
  beforeAll(async () => {
    server = await startChildServer('server/main.ts', await freePort(), '/api/v1/health', {
      DATABASE_URL: process.env.BOMB_DATABASE_URL ?? '',
    });
    token = await benchAccount(server.url, server.dataDir);
  }, 120_000);
  afterAll(async () => server?.stop());

  async function send(path: string, method: string, body?: { payload: Buffer; headers: Record<string, string> }) {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...body?.headers },
      body: body?.payload,
    });
    const json = res.headers.get('content-type')?.includes('json')
      ? ((await res.json()) as Record<string, unknown> | Record<string, unknown>[])
      : (await res.arrayBuffer(), {});
    return { status: res.status, json, ms: performance.now() - started };
  }

  const upload = (filename: string, content: Buffer, route = '/uploads') =>
    send(route, 'POST', multipartBody([{ field: 'file', filename, content }]));

  it('refuses each within a second while /health stays under 100 ms and memory under +256 MB', async () => {
    const bombs = {
      nifti: niftiBomb(),
      honestNifti: honestNiftiBomb(),
      nrrd: nrrdBomb(),
      dicom: deflatedDicomBomb(),
      zip: zipBomb('slice.dcm', GIB),
      lyingZip: zipBomb('slice.dcm', GIB, 4096),
      png: hugePng(),
      tiff: hugeTiff(),
    };
    for (const bomb of Object.values(bombs)) expect(bomb.length).toBeLessThan(1.2 * 1024 * 1024);
    const pid = server.process.pid!;
    // Each route's first request compiles its code and the de-identifying threads start on a first DICOM
    // upload: done beforehand with honest files, so what is timed is the bombs' own cost.
    expect((await upload('warm-up.dcm', await phantomDicom())).status).toBe(201);
    for (const [name, content] of [
      ['warm-up.nii.gz', phantomNifti()],
      [
        'warm-up.png',
        await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
          .png()
          .toBuffer(),
      ],
    ] as const) {
      const stored = await upload(name, content);
      expect(stored.status).toBe(201);
      const storedName = (stored.json as { stored_filename: string }).stored_filename;
      expect((await send(`/uploads/${storedName}/metadata`, 'GET')).status).toBe(200);
      expect((await send(`/uploads/${storedName}/preview.png`, 'GET')).status).toBe(200);
    }
    // Settled first: the account's registration left garbage a collection may free mid-test.
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssOf(pid);
    let peak = baseline;

    /** One round: every bomb sent while /health is asked every 20 ms, after 1.5 s of asking it idle. */
    async function round() {
      let running = true;
      let health: number[] = [];
      const probe = (async () => {
        while (running) {
          const started = performance.now();
          const res = await fetch(`${server.url}/api/v1/health`);
          await res.arrayBuffer();
          health.push(performance.now() - started);
          peak = Math.max(peak, rssOf(pid));
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      // The same probe with nothing else to do: what this machine's load alone costs a request.
      await new Promise((r) => setTimeout(r, 1500));
      const idle = health;
      health = [];
      const refusals: { name: string; status: number; detail: unknown; ms: number }[] = [];
      const note = (name: string, r: { status: number; json: unknown; ms: number }) =>
        refusals.push({ name, status: r.status, detail: (r.json as { detail?: unknown }).detail, ms: r.ms });
      // A gzip NIfTI's header is cleaned on arrival, through a bounded gunzip: refused at upload.
      note('nifti upload', await upload('bomb.nii.gz', bombs.nifti));
      note('honest nifti upload', await upload('honest.nii.gz', bombs.honestNifti));
      // Stored as sent (nothing is decompressed at upload), refused when first decoded.
      for (const [name, file] of [
        ['nrrd', 'bomb.nrrd'],
        ['png', 'huge.png'],
        ['tiff', 'huge.tif'],
      ] as const) {
        const stored = await upload(file, bombs[name]);
        expect(stored.status, `${name} upload`).toBe(201);
        const storedName = (stored.json as { stored_filename: string }).stored_filename;
        note(`${name} metadata`, await send(`/uploads/${storedName}/metadata`, 'GET'));
        note(`${name} preview`, await send(`/uploads/${storedName}/preview.png`, 'GET'));
      }
      // De-identified on arrival, so refused at upload.
      note('dicom upload', await upload('bomb.dcm', bombs.dicom));
      note('zip series', await upload('slices.zip', bombs.zip, '/uploads/series'));
      note('lying zip series', await upload('slices.zip', bombs.lyingZip, '/uploads/series'));
      running = false;
      await probe;
      if (process.env.BOMB_LOG) console.table(refusals);
      for (const refusal of refusals) {
        expect(refusal.status, refusal.name).toBeGreaterThanOrEqual(413);
        expect(refusal.status, refusal.name).toBeLessThan(500);
        expect(refusal.detail, refusal.name).toMatch(/bomb|too large|more than/);
        // An honest gzip NIfTI is let expand to its 256 MiB grace (real volumes of zeros compress that well)
        // before the ratio refuses it: gunzipped and gzipped on libuv's threads, some 2 s of CPU, not the loop's.
        expect(refusal.ms, refusal.name).toBeLessThan(refusal.name === 'honest nifti upload' ? 5000 : 1000);
      }
      expect(health.length).toBeGreaterThan(3);
      expect(peak - baseline).toBeLessThan(256 * 1024 * 1024);
      const slowest = { idle: Math.max(...idle), health: Math.max(...health) };
      console.info(
        `idle: slowest health ${Math.round(slowest.idle)} ms; bombs: slowest refusal ` +
          `${Math.round(Math.max(...refusals.map((r) => r.ms)))} ms, health ${health.length} answers, ` +
          `slowest ${Math.round(slowest.health)} ms, RSS +${Math.round((peak - baseline) / 1024 / 1024)} MB`,
      );
      return slowest;
    }

    // /health must answer within 100 ms plus what the machine's own load cost it idle (a few ms on a quiet
    // machine). On a shared machine other processes' turns on the two cores delay any request now and
    // then, so the best of up to five rounds is judged; a bomb that blocked the event loop would slow them all.
    let best = Infinity;
    for (let attempt = 0; attempt < 5 && best >= 100; attempt++) {
      const slowest = await round();
      best = Math.min(best, slowest.health - slowest.idle);
    }
    expect(best).toBeLessThan(100);
  }, 200_000);
});
