import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../server/imaging/decode-image.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

// A 4D NIfTI written by nibabel's authors: 128 x 96 x 24 voxels at 2 time points.
const FILE = '/usr/lib/python3/dist-packages/nibabel/tests/data/example4d.nii.gz';

let t: TestApp;
let user: TestUser;
let name: string;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
  name = (await uploadFile(t, user, 'fmri.nii.gz', readFileSync(FILE))).json().stored_filename;
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: user.auth });

describe('4D NIfTI', () => {
  it('says in its metadata that it has two volumes', async () => {
    const res = await get(`/uploads/${name}/metadata`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ format: 'nii', dimensions: [128, 96, 24], time_points: 2 });
  });

  it('decodes each volume as nibabel reads it', async () => {
    // nibabel's values of one voxel at each time point, computed here rather than copied.
    const script = `import nibabel as nb; d = nb.load('${FILE}').get_fdata(); print(d[64, 48, 12, 0], d[64, 48, 12, 1])`;
    const reference = execFileSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' }).trim().split(/\s+/);
    const bytes = readFileSync(FILE);
    for (const timePoint of [0, 1]) {
      const volume = await decodeImage(bytes, 'nii', undefined, timePoint);
      expect(volume.timePoints).toBe(2);
      expect(volume.data[64 + 48 * 128 + 12 * 128 * 96]).toBeCloseTo(Number(reference[timePoint]), 3);
    }
  });

  it('previews any volume on request, says how many there are, and refuses one past the last', async () => {
    const first = await get(`/uploads/${name}/preview.png?slice=12`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-volume-count']).toBe('2');
    expect(first.headers['x-volume']).toBe('0');
    const second = await get(`/uploads/${name}/preview.png?slice=12&volume=1`);
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-volume']).toBe('1');
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).not.toBe(0);
    const past = await get(`/uploads/${name}/preview.png?volume=2`);
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ detail: 'Volume 2 is out of range: this image has 2 volumes (0–1)' });
  });
});
