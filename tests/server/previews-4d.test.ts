import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

describe('4D NRRD', () => {
  // nibabel's 4D example, its values written by nibabel and numpy as NRRD in the two layouts 4D NRRDs use:
  // volumes one after another (x y z t), and a list axis first with each voxel's values side by side.
  const folder = mkdtempSync(path.join(tmpdir(), 'nrrd4d-'));
  const layouts = {
    'volumes one after another': {
      file: path.join(folder, 'xyzt.nrrd'),
      sizes: '128 96 24 2',
      kinds: 'domain domain domain time',
      first: false,
      gzip: false,
    },
    'a list axis first, gzip': {
      file: path.join(folder, 'txyz.nrrd'),
      sizes: '2 128 96 24',
      kinds: 'list domain domain domain',
      first: true,
      gzip: true,
    },
  };
  beforeAll(() => {
    const script = [
      'import gzip, sys, json, numpy as np, nibabel as nb',
      `d = nb.load('${FILE}').get_fdata().astype('<f4')`,
      'for spec in json.loads(sys.argv[1]):',
      "    a = np.moveaxis(d, 3, 0) if spec['first'] else d",
      "    data = a.tobytes(order='F')",
      "    data = gzip.compress(data) if spec['gzip'] else data",
      "    head = 'NRRD0004\\ntype: float\\ndimension: 4\\nsizes: %s\\nkinds: %s\\nendian: little\\nencoding: %s\\n\\n' % (spec['sizes'], spec['kinds'], 'gzip' if spec['gzip'] else 'raw')",
      "    open(spec['file'], 'wb').write(head.encode() + data)",
    ].join('\n');
    execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify(Object.values(layouts))]);
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  for (const [layout, spec] of Object.entries(layouts)) {
    it(`decodes each volume as nibabel reads it, ${layout}`, async () => {
      const script = `import nibabel as nb; d = nb.load('${FILE}').get_fdata(); print(d[64, 48, 12, 0], d[64, 48, 12, 1], d[5, 90, 3, 1])`;
      const reference = execFileSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' }).trim().split(/\s+/);
      const bytes = readFileSync(spec.file);
      const [first, second] = [
        await decodeImage(bytes, 'nrrd', undefined, 0),
        await decodeImage(bytes, 'nrrd', undefined, 1),
      ];
      expect([first.width, first.height, first.depth, first.timePoints]).toEqual([128, 96, 24, 2]);
      expect(first.data[64 + 48 * 128 + 12 * 128 * 96]).toBeCloseTo(Number(reference[0]), 3);
      expect(second.data[64 + 48 * 128 + 12 * 128 * 96]).toBeCloseTo(Number(reference[1]), 3);
      expect(second.data[5 + 90 * 128 + 3 * 128 * 96]).toBeCloseTo(Number(reference[2]), 3);

      const stored = (await uploadFile(t, user, path.basename(spec.file), bytes)).json().stored_filename;
      expect((await get(`/uploads/${stored}/metadata`)).json()).toMatchObject({ format: 'nrrd', time_points: 2 });
      const a = await get(`/uploads/${stored}/preview.png?slice=12`);
      const b = await get(`/uploads/${stored}/preview.png?slice=12&volume=1`);
      expect([a.statusCode, b.statusCode, b.headers['x-volume-count']]).toEqual([200, 200, '2']);
      expect(Buffer.compare(a.rawPayload, b.rawPayload)).not.toBe(0);
    });
  }
});
