import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecompressionLimitError } from '../../server/imaging/bounded-inflate.ts';
import { parseDicom } from '../../server/imaging/dicom/dicom-dataset.ts';
import { deflatedDicomDeclaring } from '../fixtures/ingest-attacks.ts';
import { multipartBody } from '../fixtures/multipart-body.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

describe('a deflated DICOM file honestly declaring a huge image', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
  });
  afterAll(async () => t?.close());

  const upload = (name: string, bytes: Uint8Array) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      ...(({ payload, headers }) => ({ payload, headers: { ...headers, ...user.auth } }))(
        multipartBody([{ field: 'file', filename: name, content: Buffer.from(bytes) }]),
      ),
    });

  it('is refused before inflating when it declares over ten times its size past 64 MiB', () => {
    const attack = deflatedDicomDeclaring(12000, 12000);
    expect(attack.bytes.length).toBeLessThan(300_000);
    const started = performance.now();
    expect(() => parseDicom(attack.bytes)).toThrow(DecompressionLimitError);
    expect(() => parseDicom(attack.bytes)).toThrow(
      /^This deflated DICOM file declares 275 MB of pixels, over 10 times its 274 KB: refused as a possible decompression bomb\.$/,
    );
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('is refused at upload with a 4xx and nothing stored, not kept as 288 MB', async () => {
    const res = await upload('declared.dcm', deflatedDicomDeclaring(12000, 12000).bytes);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().detail).toMatch(/declares 275 MB of pixels/);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: user.auth });
    expect(JSON.stringify(list.json())).not.toContain('declared');
  });

  it('still takes one declaring a 1000 x 1000 image (2 MB, under the 64 MiB grace)', async () => {
    const res = await upload('small.dcm', deflatedDicomDeclaring(1000, 1000).bytes);
    expect(res.statusCode).toBe(201);
    expect(res.json().size_bytes).toBeLessThan(3 * 1024 * 1024);
  });
});
