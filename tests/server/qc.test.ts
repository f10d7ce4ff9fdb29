import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../server/imaging/decode-image.ts';
import { FOREIGN_URL } from '../../server/modules/qc/image-url.ts';
import { BUILTIN_MODEL } from '../../server/modules/qc/qc-summary.ts';
import { CHECKS_BUSY, CHECKS_PER_USER } from '../../server/modules/qc/qc.routes.ts';
import { int16NiftiOf, writeNifti } from '../fixtures/nifti-writer.ts';
import { phantomDicom, phantomNifti } from '../fixtures/upload-images.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

const CT_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

/** The request the dashboard sends (SPEC §7). */
const qcBody = (url: string) => ({
  model: 'google/medgemma-4b-it',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url } },
        { type: 'text', text: 'Give a short QC summary: issues, a confidence (0-100) and suggested fixes.' },
      ],
    },
  ],
});

const check = (url: string, who = user) =>
  t.app.inject({ method: 'POST', url: '/api/v1/llm/generate-messages', headers: who.auth, payload: qcBody(url) });

describe('POST /llm/generate-messages with the built-in engine', () => {
  it('passes a clean phantom and answers in the chat-completion shape with the summary', async () => {
    const item = (await uploadFile(t, user, 'clean.dcm', await phantomDicom())).json();
    const res = await check(item.url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.object).toBe('chat.completion');
    expect(body.model).toMatch(/^lumenqc-builtin-1\+qc-model-\d+\.[0-9a-f]{8}$/);
    expect(body.model).toBe(BUILTIN_MODEL);
    const text: string = body.choices[0].message.content;
    expect(text).toMatch(/^QC verdict: Pass \(MR, 128×128×1\)\./);
    expect(text).toMatch(/^Issues: none found\.$/m);
    expect(text).toMatch(/^Measurements: SNR \(Rician-corrected\) \d+\.\d \(expected ≥ \d/m);
    expect(text).toMatch(/^Confidence: \d{1,3}\/100$/m);
    expect(text).toMatch(/^Suggested fixes: none needed\.$/m);
    expect(body.qc).toMatchObject({ verdict: 'pass', stored_filename: item.stored_filename, issues: [] });
    expect(body.qc.metrics.family).toBe('MR');
    expect(body.qc.measurements.find((m: { key: string }) => m.key === 'snr')).toMatchObject({ status: 'ok' });
  });

  it('fails a strongly degraded phantom, listing issues and fixes', async () => {
    const item = (await uploadFile(t, user, 'bad.dcm', await phantomDicom({ degraded: true }))).json();
    const body = (await check(item.url)).json();
    expect(body.qc.verdict).toBe('fail');
    expect(body.choices[0].message.content).toMatch(/^QC verdict: Fail/);
    expect(body.choices[0].message.content).toContain('Low SNR');
    expect(body.qc.fixes.length).toBeGreaterThan(0);
  });

  it('stores each result, lists it in the history and counts the image as analysed', async () => {
    const item = (await uploadFile(t, user, 'brain.nii.gz', phantomNifti())).json();
    await check(item.url);
    await check(`http://127.0.0.1:8787${item.url}`);
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}/qc-results`,
      headers: user.auth,
    });
    expect(history.statusCode).toBe(200);
    expect(history.json()).toHaveLength(2);
    expect(history.json()[0]).toMatchObject({ model: BUILTIN_MODEL, prompt_version: 'qc-summary-v1' });
    expect(history.json()[0].metrics.snr).toBeGreaterThan(0);
    const metrics = await t.app.inject({ method: 'GET', url: '/api/v1/dashboard/metrics', headers: user.auth });
    expect(metrics.json().analyzed_images).toBeGreaterThanOrEqual(1);
  });
});

describe('the built-in engine is bounded by checks running, not by checks a minute', () => {
  it('answers more than 30 checks in a minute from one user', async () => {
    const item = (await uploadFile(t, user, 'often.dcm', await phantomDicom())).json();
    for (let i = 0; i < 35; i++) expect((await check(item.url)).statusCode).toBe(200);
  }, 30_000);

  it('refuses a check beyond the user’s running ones with 429, without holding up another user', async () => {
    const item = (await uploadFile(t, user, 'volume.nii.gz', phantomNifti())).json();
    const other = await createSignedInUser(t);
    const theirs = (await uploadFile(t, other, 'theirs.nii.gz', phantomNifti())).json();
    const answers = await Promise.all([
      ...Array.from({ length: CHECKS_PER_USER + 2 }, () => check(item.url)),
      check(theirs.url, other),
    ]);
    const mine = answers.slice(0, -1);
    // How many of one user's checks overlap depends on the machine's load (a check can end before the
    // next request arrives), so the exact bound is proven in per-user-concurrency.test.ts; here every
    // answer is either a result or the busy answer, and at least the allowed number are results.
    expect(mine.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(CHECKS_PER_USER);
    for (const refused of mine.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ detail: CHECKS_BUSY });
    }
    expect(answers.at(-1)!.statusCode).toBe(200);
    // The slots are given back, whether the check answered or failed.
    expect((await check(item.url)).statusCode).toBe(200);
    expect((await check('/api/v1/uploads/nothing-here.dcm')).statusCode).toBe(404);
    expect((await check(item.url)).statusCode).toBe(200);
  });
});

describe('the check never answers 5xx', () => {
  it('fails an image whose every value is NaN (decoded as blank) instead of erring', async () => {
    const nan = writeNifti({ dims: [32, 32, 2], values: new Float32Array(2048).fill(NaN), type: 'float32' });
    const item = (await uploadFile(t, user, 'nan.nii', Buffer.from(nan))).json();
    const res = await check(item.url);
    expect(res.statusCode).toBe(200);
    expect(res.json().qc.verdict).toBe('fail');
  });

  it('checks float images holding NaN and infinities, and CT in Hounsfield units below zero', async () => {
    const values = Float32Array.from({ length: 32 * 32 * 2 }, (_, i) =>
      i % 97 === 0 ? NaN : i % 89 === 0 ? -Infinity : i % 83 === 0 ? Infinity : -1000 + ((i * 31) % 1200),
    );
    const item = (
      await uploadFile(t, user, 'odd.nii', Buffer.from(writeNifti({ dims: [32, 32, 2], values, type: 'float32' })))
    ).json();
    const res = await check(item.url);
    expect(res.statusCode).toBe(200);
    expect(Number.isInteger(res.json().qc.confidence)).toBe(true);
  });

  it('refuses a thumbnail too small to measure, and a segmentation, with the reason and 422', async () => {
    const thumbnail = writeNifti({ dims: [16, 16, 1], values: new Float32Array(256).fill(100), type: 'float32' });
    const small = await check((await uploadFile(t, user, 'thumb.nii', Buffer.from(thumbnail))).json().url);
    expect(small.statusCode).toBe(422);
    expect(small.json().detail).toBe(
      'This image is 16 × 16 pixels, too small for its quality to be measured (at least 32 × 32 are needed).',
    );
    const seg = readFileSync('/usr/lib/python3/dist-packages/pydicom/data/test_files/liver_1frame.dcm');
    const labels = await check((await uploadFile(t, user, 'liver.dcm', seg)).json().url);
    expect(labels.statusCode).toBe(422);
    expect(labels.json().detail).toBe(
      'This DICOM object is a segmentation, not an acquired image, so its image quality cannot be checked.',
    );
  });

  const debian = [
    '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm',
    '/usr/lib/python3/dist-packages/pydicom/data/test_files/MR_small.dcm',
    '/usr/lib/python3/dist-packages/pydicom/data/test_files/JPEG2000.dcm',
    '/usr/lib/python3/dist-packages/pydicom/data/test_files/SC_rgb_rle_16bit.dcm',
    '/usr/lib/python3/dist-packages/nibabel/tests/data/anatomical.nii',
    '/usr/lib/python3/dist-packages/nibabel/tests/data/functional.nii',
    '/usr/lib/python3/dist-packages/nibabel/tests/data/example4d.nii.gz',
  ];
  for (const path of debian) {
    it(`checks ${path.split('/').pop()} (data this project did not make) without a server error`, async () => {
      const name = path.split('/').pop()!;
      const item = (await uploadFile(t, user, name, readFileSync(path))).json();
      const res = await check(item.url);
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode === 200) expect(['pass', 'review', 'fail']).toContain(res.json().qc.verdict);
    });
  }
});

describe('only the caller’s own uploads can be checked (no server-side request forgery)', () => {
  const outside = [
    'http://169.254.169.254/latest/meta-data/',
    'https://example.org/api/v1/uploads/a.dcm',
    'http://127.0.0.1:5432/api/v1/uploads/a.dcm',
    'file:///etc/passwd',
    'data:image/png;base64,iVBORw0KGgo=',
    '//example.org/api/v1/uploads/a.dcm',
    '/api/v1/uploads/../auth/login',
    '/api/v1/profile/me',
  ];
  for (const url of outside) {
    it(`refuses ${url} with 400`, async () => {
      const res = await check(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(FOREIGN_URL);
    });
  }

  it("answers 404 for another user's upload, exactly as for an unknown one", async () => {
    const item = (await uploadFile(t, user, 'mine.dcm', await phantomDicom())).json();
    const other = await createSignedInUser(t);
    const res = await check(item.url, other);
    expect(res.statusCode).toBe(404);
    expect((await check('/api/v1/uploads/nothing-here.dcm')).json().detail).toBe(res.json().detail);
  });

  it('refuses a request without exactly one image', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/llm/generate-messages',
      headers: user.auth,
      payload: { model: 'x', messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(res.statusCode).toBe(400);
  });

  it('needs a signed-in caller', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/llm/generate-messages',
      payload: qcBody('/api/v1/uploads/a.dcm'),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('DICOM de-identification on arrival', () => {
  it('stores no identifying value of an uploaded DICOM, and says so in its metadata', async () => {
    const { fixtureIdentity } = await import('../fixtures/identity.ts');
    const item = (await uploadFile(t, user, 'patient.dcm', await phantomDicom({ syntax: 'rle' }))).json();
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}`,
      headers: user.auth,
    });
    const text = stored.rawPayload.toString('latin1');
    for (const value of Object.values(fixtureIdentity)) expect(text, value).not.toContain(value);
    expect(text).toContain('Basic Application Confidentiality Profile');
    expect(item.size_bytes).toBe(stored.rawPayload.length);
    const metadata = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}/metadata`,
      headers: user.auth,
    });
    expect(metadata.json()).toMatchObject({ deidentified: true, modality: 'MR', dimensions: [128, 128, 1] });
  });

  it('keeps the original when the uploader asks (?deidentify=false)', async () => {
    const { multipartBody } = await import('./uploads-fixtures.ts');
    const body = multipartBody([{ field: 'file', filename: 'keep.dcm', content: await phantomDicom() }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads?deidentify=false',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${res.json().stored_filename}`,
      headers: user.auth,
    });
    expect(stored.rawPayload.toString('latin1')).toContain('DOE^JANE^MARIE');
  });

  it('refuses a .dcm that cannot be parsed, since it cannot be shown to be clean', async () => {
    const res = await uploadFile(
      t,
      user,
      'broken.dcm',
      Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.alloc(200, 1)]),
    );
    expect(res.statusCode).toBe(415);
  });

  it('strips EXIF from a JPEG without touching its pixels', async () => {
    const sharp = (await import('sharp')).default;
    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'Dr Secret Person', ImageDescription: 'Patient Jane' } })
      .toBuffer();
    expect(jpeg.toString('latin1')).toContain('Dr Secret Person');
    const item = (await uploadFile(t, user, 'photo.jpg', jpeg)).json();
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}`,
      headers: user.auth,
    });
    expect(stored.rawPayload.toString('latin1')).not.toContain('Dr Secret Person');
    const [a, b] = await Promise.all([jpeg, stored.rawPayload].map((x) => sharp(x).raw().toBuffer()));
    expect(Buffer.compare(a!, b!)).toBe(0);
  });
});

describe('the check on other kinds of image', () => {
  it('writes the histology summary for a colour slide', async () => {
    const sharp = (await import('sharp')).default;
    const size = 96;
    const rgb = Buffer.alloc(size * size * 3);
    for (let p = 0; p < size * size; p++) {
      const tissue = p % size < size / 2;
      const shade = (p * 37) % 60;
      rgb.set(tissue ? [190 - shade, 80 - shade / 2, 150 - shade] : [244, 244, 244], p * 3);
    }
    const png = await sharp(rgb, { raw: { width: size, height: size, channels: 3 } })
      .png()
      .toBuffer();
    const item = (await uploadFile(t, user, 'slide.png', png)).json();
    const body = (await check(item.url)).json();
    expect(body.choices[0].message.content).toMatch(/^QC verdict: \w+ \(SM, 96×96×1\)\./);
    expect(body.qc.metrics.colour.tissueCoverage).toBeGreaterThan(0.4);
  });

  it.skipIf(!existsSync(CT_SMALL))(
    'judges a CT converted to NIfTI (Hounsfield units, no modality) as CT, and passes it',
    async () => {
      const ct = await decodeImage(new Uint8Array(readFileSync(CT_SMALL)), '.dcm');
      const nifti = int16NiftiOf(ct, { gzip: true });
      const item = (await uploadFile(t, user, 'ct.nii.gz', Buffer.from(nifti))).json();
      const body = (await check(item.url)).json();
      expect(body.choices[0].message.content).toMatch(/^QC verdict: Pass \(CT, 128×128×1\)\./);
      expect(body.qc.verdict).toBe('pass');
    },
  );

  it('answers 415 with the decoder’s reason for a file it cannot read', async () => {
    const { niftiBytes } = await import('./uploads-fixtures.ts');
    const item = (await uploadFile(t, user, 'empty.nii', niftiBytes())).json();
    const res = await check(item.url);
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toBe('NIfTI datatype 0 is not supported.');
  });
});

describe('identifying values never reach storage', () => {
  it('writes no byte of the identifying values of a DICOM to the store, not even for a moment', async () => {
    const path = await import('node:path');
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { createDiskStorage } = await import('../../server/storage/disk-storage.ts');
    const { fixtureIdentity } = await import('../fixtures/identity.ts');
    const disk = createDiskStorage(await mkdtemp(path.join(tmpdir(), 'lumenqc-recording-')));
    const written: Buffer[] = [];
    // A store that keeps a copy of every byte it is given, before writing it: every byte goes through put.
    const recording: typeof disk = {
      ...disk,
      async put(key, body, options) {
        if (body instanceof Uint8Array) {
          written.push(Buffer.from(body));
          return disk.put(key, body, options);
        }
        const chunks: Buffer[] = [];
        for await (const chunk of body) chunks.push(chunk as Buffer);
        written.push(Buffer.concat(chunks));
        const { Readable } = await import('node:stream');
        return disk.put(key, Readable.from(chunks), options);
      },
    };
    const own = await createTestApp({}, { storage: recording });
    try {
      const owner = await createSignedInUser(own);
      const res = await uploadFile(own, owner, 'patient.dcm', await phantomDicom({ syntax: 'jpeg-ls' }));
      expect(res.statusCode).toBe(201);
      expect(written.length).toBeGreaterThan(0);
      for (const bytes of written)
        for (const value of Object.values(fixtureIdentity)) expect(bytes.toString('latin1')).not.toContain(value);
    } finally {
      await own.close();
    }
  });

  it('keeps none of them in the file the de-identifying thread writes to local disk', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const { fixtureIdentity } = await import('../fixtures/identity.ts');
    const { uploadStorageKey } = await import('../../server/modules/uploads/uploads.repository.ts');
    const res = await uploadFile(t, user, 'patient.dcm', await phantomDicom({ syntax: 'explicit-le' }));
    expect(res.statusCode).toBe(201);
    const item = res.json();
    const stored = await readFile(path.join(t.dataDir, 'uploads', uploadStorageKey(item.stored_filename)));
    expect(stored.length).toBe(item.size_bytes);
    for (const value of Object.values(fixtureIdentity)) expect(stored.toString('latin1')).not.toContain(value);
  });
});
