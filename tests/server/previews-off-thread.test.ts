import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../fixtures/multipart-body.ts';
import { writeNifti } from '../fixtures/nifti-writer.ts';
import { seededRandom } from '../fixtures/phantoms.ts';
import { STALL_LIMIT_MS, bestOfRounds } from './helpers/event-loop-watch.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

/** A 384 x 384 x 256 int16 MR-like volume (75 MB, 37.7 million voxels): a noisy ellipsoid in noisy air. */
function largeVolume(): Uint8Array {
  const [w, h, d] = [384, 384, 256];
  const random = seededRandom(35);
  const values = new Int16Array(w * h * d);
  for (let z = 0; z < d; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const r = ((x - 192) / 150) ** 2 + ((y - 192) / 165) ** 2 + ((z - 128) / 110) ** 2;
        values[(z * h + y) * w + x] = Math.round((r < 1 ? 800 : 10) + 20 * random());
      }
  // The header written for one voxel, then given the volume's dimensions: writing 37.7 million voxels one by one is slow.
  const header = writeNifti({ dims: [1, 1, 1], values: [0] }).slice(0, 352);
  const view = new DataView(header.buffer);
  [w, h, d].forEach((size, i) => view.setInt16(42 + i * 2, size, true));
  const file = new Uint8Array(352 + values.byteLength);
  file.set(header);
  file.set(new Uint8Array(values.buffer), 352);
  return file;
}

// Through a listening server in this process: a request handled on the event loop shows as a stall of it.
describe('previews, thumbnails and checks of a large image', () => {
  let t: TestApp;
  let user: TestUser;
  let base: string;
  let stored: string;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { payload, headers } = multipartBody([
      { field: 'file', filename: 'large.nii', content: Buffer.from(largeVolume()) },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      payload,
      headers: { ...headers, ...user.auth },
    });
    expect(res.statusCode, res.body).toBe(201);
    stored = res.json().stored_filename;
    // Decoded once (on the pool) and kept: what is watched below is drawing and measuring the decoded volume.
    const first = await fetch(`${base}/api/v1/uploads/${stored}/preview.png`, { headers: user.auth });
    expect(first.status).toBe(200);
  }, 120_000);
  afterAll(async () => t?.close());

  let slice = 0;
  const get = async (path: string) => {
    const res = await fetch(`${base}/api/v1${path}`, { headers: user.auth });
    await res.arrayBuffer();
    return res.status;
  };

  it('draws previews of slices not drawn before without stalling the event loop', async () => {
    const watched = await bestOfRounds(async () => {
      slice += 1;
      return Promise.all([
        get(`/uploads/${stored}/preview.png?axis=sagittal&slice=${slice}`),
        get(`/uploads/${stored}/preview.png?axis=coronal&slice=${slice}`),
      ]);
    });
    console.info(
      `previews of a 37.7 M voxel volume: longest stall ${Math.round(watched.rawStallMs)} ms, idle ${Math.round(watched.idleStallMs)} ms`,
    );
    expect(watched.result).toEqual([200, 200]);
    expect(watched.longestStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 60_000);

  it('draws its thumbnail without stalling the event loop', async () => {
    const watched = await bestOfRounds(() => get(`/uploads/${stored}/thumbnail.webp`), 1);
    console.info(
      `thumbnail of a 37.7 M voxel volume: longest stall ${Math.round(watched.rawStallMs)} ms, idle ${Math.round(watched.idleStallMs)} ms`,
    );
    expect(watched.result).toBe(200);
    expect(watched.longestStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 60_000);

  it('checks it without stalling the event loop', async () => {
    const watched = await bestOfRounds(async () => {
      const res = await fetch(`${base}/api/v1/llm/generate-messages`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'x',
          messages: [
            { role: 'user', content: [{ type: 'image_url', image_url: { url: `/api/v1/uploads/${stored}` } }] },
          ],
        }),
      });
      return { status: res.status, body: (await res.json()) as { qc?: { verdict?: string } } };
    });
    console.info(
      `check of a 37.7 M voxel volume: longest stall ${Math.round(watched.rawStallMs)} ms, idle ${Math.round(watched.idleStallMs)} ms`,
    );
    expect(watched.result.status).toBe(200);
    expect(watched.result.body.qc?.verdict).toBeTruthy();
    expect(watched.longestStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 60_000);
});

/** An 8000 x 8000 greyscale PNG (64 million pixels, within the decode budget): a pattern of diagonal bands. */
async function largePicture(): Promise<Buffer> {
  const size = 8000;
  const pixels = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) pixels[y * size + x] = ((x + y) >> 4) & 255;
  return sharp(pixels, { raw: { width: size, height: size, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer();
}

describe('the preview and thumbnail of a 64 megapixel picture', () => {
  let t: TestApp;
  let user: TestUser;
  let base: string;
  let stored: string;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { payload, headers } = multipartBody([
      { field: 'file', filename: 'large.png', content: await largePicture() },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      payload,
      headers: { ...headers, ...user.auth },
    });
    expect(res.statusCode, res.body).toBe(201);
    stored = res.json().stored_filename;
    // Decoded (on the pool) and kept by a first preview: what is watched below is drawing it again.
    const first = await fetch(`${base}/api/v1/uploads/${stored}/preview.png`, { headers: user.auth });
    expect(first.status, await first.clone().text()).toBe(200);
  }, 120_000);
  afterAll(async () => t?.close());

  const get = async (path: string) => {
    const res = await fetch(`${base}/api/v1${path}`, { headers: user.auth });
    await res.arrayBuffer();
    return res.status;
  };

  it('draws its thumbnail and a preview across it without stalling the event loop', async () => {
    // The thumbnail is drawn in the first round and kept; each round draws a coronal preview not drawn before.
    let row = 3000;
    const watched = await bestOfRounds(() =>
      Promise.all([
        get(`/uploads/${stored}/thumbnail.webp`),
        get(`/uploads/${stored}/preview.png?axis=coronal&slice=${(row += 500)}`),
      ]),
    );
    console.info(
      `preview and thumbnail of 64 megapixels: longest stall ${Math.round(watched.rawStallMs)} ms, idle ${Math.round(watched.idleStallMs)} ms`,
    );
    expect(watched.result).toEqual([200, 200]);
    expect(watched.longestStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 60_000);
});
