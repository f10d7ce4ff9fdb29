// Free text in NIfTI and NRRD headers is cleared on upload: files written by nibabel, read back by nibabel.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { multipartBody } from '../fixtures/multipart-body.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

const script = new URL('../fixtures/marked_volumes.py', import.meta.url).pathname;
const SECRETS = ['DOE', 'JOHN', 'MRN778899', 'SECRET', '19700101'];

let t: TestApp;
let user: TestUser;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-volumes-'));
  execFileSync('/usr/bin/python3', [script, 'make', dir]);
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

function stored(storedFilename: string): Buffer {
  return readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(storedFilename)));
}

describe('NIfTI and NRRD headers', () => {
  for (const name of ['marked.nii', 'marked.nii.gz', 'marked2.nii.gz']) {
    it(`${name}: descrip, aux_file, intent_name, db_name and extensions are cleared, the voxels and geometry kept`, async () => {
      const original = readFileSync(path.join(dir, name));
      const plain = name.endsWith('.gz') ? gunzipSync(original) : original;
      expect(plain.toString('latin1')).toContain('MRN778899');
      const res = await uploadFile(t, user, 'DOE_JOHN.nii' + (name.endsWith('.gz') ? '.gz' : ''), original);
      expect(res.statusCode).toBe(201);
      const bytes = stored(res.json().stored_filename);
      const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
      for (const secret of SECRETS) expect(text, secret).not.toContain(secret);
      const file = path.join(dir, `stored-${name}`);
      writeFileSync(file, bytes);
      const read = JSON.parse(
        execFileSync('/usr/bin/python3', [script, 'check', file, path.join(dir, name)], { encoding: 'utf8' }),
      );
      expect(read).toEqual({
        descrip: '',
        aux_file: '',
        intent_name: '',
        // NIfTI-2 has no db_name.
        ...(name === 'marked2.nii.gz' ? {} : { db_name: '' }),
        extensions: 0,
        same_voxels: true,
        zooms: [1.5, 1.5, 3],
      });
    });
  }

  it('keeps a NIfTI as sent when asked (?deidentify=false)', async () => {
    const original = readFileSync(path.join(dir, 'marked.nii'));
    const body = multipartBody([{ field: 'file', filename: 'kept.nii', content: original }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads?deidentify=false',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    expect(stored(res.json().stored_filename).equals(original)).toBe(true);
  });

  it('an NRRD loses its comments, content, labels, units, key/value pairs and unknown fields, and keeps the fields that describe the data', async () => {
    const header = [
      'NRRD0004',
      '# Patient DOE JOHN, scanned 19700101',
      'type: uint8',
      'dimension: 3',
      'sizes: 2 2 2',
      'content: DOE JOHN head',
      'encoding: raw',
      'space directions: (1,0,0) (0,1,0) (0,0,2)',
      'patient_id:=MRN778899',
      'labels: "DOE" "JOHN" "z"',
      'units: "MRN778899" "cm" "cm"',
      'sample units: SECRET',
      'space units: "mm" "mm" "19700101 DOE"',
      'Physician: DOE JOHN',
      '',
      '',
    ].join('\n');
    const data = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const res = await uploadFile(t, user, 'DOE.nrrd', Buffer.concat([Buffer.from(header, 'latin1'), data]));
    expect(res.statusCode).toBe(201);
    const bytes = stored(res.json().stored_filename);
    const text = bytes.toString('latin1');
    for (const secret of SECRETS) expect(text, secret).not.toContain(secret);
    expect(text).toContain('sizes: 2 2 2\n');
    expect(text).toContain('space directions: (1,0,0) (0,1,0) (0,0,2)\n');
    expect(text).not.toMatch(/labels|units|Physician/);
    expect(bytes.subarray(bytes.length - 8).equals(data)).toBe(true);
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${res.json().stored_filename}/metadata`,
      headers: user.auth,
    });
    expect(preview.json()).toMatchObject({ dimensions: [2, 2, 2] });
  });

  it('an NRRD keeps plain space units and the fields written without spaces', async () => {
    const header = [
      'NRRD0005',
      'type: short',
      'dimension: 2',
      'space: left-posterior-superior',
      'sizes: 2 2',
      'spacedirections: (0.5,0,0) (0,0.5,0)',
      'space units: "mm" "mm" "mm"',
      'encoding: raw',
      'endian: little',
      '',
      '',
    ].join('\n');
    const data = Buffer.from([1, 0, 2, 0, 3, 0, 4, 0]);
    const res = await uploadFile(t, user, 'plain.nrrd', Buffer.concat([Buffer.from(header, 'latin1'), data]));
    expect(res.statusCode).toBe(201);
    expect(stored(res.json().stored_filename).toString('latin1')).toBe(header + data.toString('latin1'));
  });

  // Files of other toolkits (FSL, SPM), as nibabel ships them: their free text and extensions go, nothing else.
  const nibabelData = '/usr/lib/python3/dist-packages/nibabel/tests/data';
  for (const name of ['example4d.nii.gz', 'example_nifti2.nii.gz', 'anatomical.nii']) {
    it(`nibabel's ${name}: descrip and extensions are cleared, the voxels kept`, async () => {
      const original = readFileSync(path.join(nibabelData, name));
      const res = await uploadFile(t, user, name, original);
      expect(res.statusCode).toBe(201);
      const file = path.join(dir, `stored-nibabel-${name}`);
      writeFileSync(file, stored(res.json().stored_filename));
      const read = JSON.parse(
        execFileSync('/usr/bin/python3', [script, 'check', file, path.join(nibabelData, name)], { encoding: 'utf8' }),
      );
      expect(read).toMatchObject({ descrip: '', aux_file: '', intent_name: '', extensions: 0, same_voxels: true });
    });
  }
});
