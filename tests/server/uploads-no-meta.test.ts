// A DICOM data set with no Part 10 header behind a few left-over bytes (as pydicom's no_meta.dcm is) goes
// through upload, de-identification, metadata, preview and check like any DICOM file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDicom } from '../../server/imaging/dicom/dicom-dataset.ts';
import { hasPart10Preamble } from '../../server/imaging/dicom/part10.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { fixtureIdentity } from '../fixtures/identity.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

const NO_META = '/usr/lib/python3/dist-packages/pydicom/data/test_files/no_meta.dcm';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: user.auth });
const check = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/llm/generate-messages',
    headers: user.auth,
    payload: {
      model: 'google/medgemma-4b-it',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    },
  });

/** Uploads, then asks for metadata, preview and a check; answers the stored bytes and the answers' statuses. */
async function roundTrip(name: string, bytes: Uint8Array) {
  const uploaded = await uploadFile(t, user, name, Buffer.from(bytes));
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const item = uploaded.json<{ stored_filename: string; url: string }>();
  const stored = new Uint8Array(readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(item.stored_filename))));
  const metadata = await get(`/uploads/${item.stored_filename}/metadata`);
  const preview = await get(`/uploads/${item.stored_filename}/preview.png`);
  const qc = await check(item.url);
  return { stored, metadata, preview, qc };
}

describe('a bare data set behind left-over bytes', () => {
  it('is accepted, de-identified into a Part 10 file, previewed and checked', async () => {
    const bare = await makeDicomImage({ width: 64, height: 64, identifying: true, preamble: false });
    const { stored, metadata, preview, qc } = await roundTrip(
      'cut-short.dcm',
      new Uint8Array(Buffer.concat([Buffer.from(' '), bare])),
    );
    expect(hasPart10Preamble(stored)).toBe(true);
    const text = Buffer.from(stored).toString('latin1');
    for (const value of [fixtureIdentity.patientName, fixtureIdentity.patientId, fixtureIdentity.institutionName])
      expect(text).not.toContain(value);
    expect(parseDicom(stored).string('x00120062')).toBe('YES');
    expect(metadata.statusCode, metadata.body).toBe(200);
    expect(metadata.json()).toMatchObject({ deidentified: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(qc.statusCode, qc.body).toBe(200);
  });

  it.skipIf(!existsSync(NO_META))('takes pydicom’s no_meta.dcm through the same path', async () => {
    const { stored, metadata, preview, qc } = await roundTrip('no_meta.dcm', new Uint8Array(readFileSync(NO_META)));
    expect(hasPart10Preamble(stored)).toBe(true);
    expect(Buffer.from(stored).toString('latin1')).not.toContain('CompressedSamples^CT1');
    expect(metadata.statusCode, metadata.body).toBe(200);
    expect(metadata.json()).toMatchObject({ modality: 'CT', dimensions: [128, 128, 1], deidentified: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(qc.statusCode, qc.body).toBe(200);
  });
});
