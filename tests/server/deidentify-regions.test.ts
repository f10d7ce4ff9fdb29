// Rectangles a member draws on a de-identified DICOM image: validated, blanked in every frame of the stored file
// (compressed pixel data decoded first), listed in the report; proven on pydicom's files and dcmtk conversions of
// them, read back by dcmtk, dicom3tools and pydicom.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { dciodvfyErrors, dcmdumpValue, readWithPydicom, sampleAt } from '../fixtures/pydicom-pixels.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createTeamWorkspace, type TeamPerson } from './helpers/team-workspace.ts';
import type { TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes, uploadFile } from './uploads-fixtures.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

let t: TestApp;
let dir: string;
let team: string;
let people: Record<TeamPerson, TestUser>;

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-regions-'));
  ({ id: team, people } = await createTeamWorkspace(t, { name: 'Redaction' }));
});
afterAll(() => t.close());

async function upload(file: string, query = '', who = people.member): Promise<string> {
  const body = multipartBody([{ field: 'file', filename: path.basename(file), content: readFileSync(file) }]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/uploads${query}`,
    headers: { ...who.auth, ...body.headers, [WORKSPACE_HEADER]: team },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ stored_filename: string }>().stored_filename;
}

/** Asks `user` to blank rectangles, in the team workspace or (`null`) their own personal one. */
function blank(user: TestUser, stored: string, payload: unknown, workspace: string | null = team) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/uploads/${stored}/deidentification/regions`,
    headers: { ...user.auth, ...(workspace && { [WORKSPACE_HEADER]: workspace }) },
    payload: payload as object,
  });
}

/** The stored file, copied out under `name` so the tools can read it. */
function storedCopy(stored: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(stored))));
  return file;
}

const inside = (r: { x: number; y: number; width: number; height: number }, x: number, y: number) =>
  x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;

describe('blanking rectangles drawn by a member', () => {
  // Native, and compressed by dcmtk from pydicom's files (lossless, so every other sample must be as it was).
  const cases = [
    { name: 'CT_small.dcm (native)', source: 'CT_small.dcm', tool: undefined, syntax: EXPLICIT_LE },
    { name: 'CT_small.dcm via dcmcrle', source: 'CT_small.dcm', tool: ['dcmcrle'], syntax: '1.2.840.10008.1.2.5' },
    {
      name: 'CT_small.dcm via dcmcjpeg +e1',
      source: 'CT_small.dcm',
      tool: ['dcmcjpeg', '+e1'],
      syntax: '1.2.840.10008.1.2.4.70',
    },
    {
      name: 'MR_small.dcm via dcmcjpeg +e1',
      source: 'MR_small.dcm',
      tool: ['dcmcjpeg', '+e1'],
      syntax: '1.2.840.10008.1.2.4.70',
    },
    // dcmtk's lossy JPEG baseline of colour, in YBR_FULL: decoded to RGB, as pydicom converts it.
    {
      name: 'SC_rgb_jpeg_dcmtk.dcm',
      source: 'SC_rgb_jpeg_dcmtk.dcm',
      tool: undefined,
      syntax: '1.2.840.10008.1.2.4.50',
    },
    // pydicom's own RLE colour file of two frames.
    { name: 'SC_rgb_rle_2frame.dcm', source: 'SC_rgb_rle_2frame.dcm', tool: undefined, syntax: '1.2.840.10008.1.2.5' },
  ];
  for (const c of cases) {
    it(`${c.name}: the rectangles are black in every frame, nothing else changed, and the report lists them`, async () => {
      let input = path.join(PYDICOM, c.source);
      if (c.tool) {
        const out = path.join(dir, `${c.tool.join('')}-${c.source}`);
        execFileSync(c.tool[0]!, [...c.tool.slice(1), input, out]);
        input = out;
      }
      expect(dcmdumpValue(input, '0002,0010')).toBe(c.syntax);
      // dcmtk compressed losslessly: the source's samples, as pydicom reads them, are what must survive.
      const original = readWithPydicom(path.join(PYDICOM, c.source));
      const stored = await upload(input);
      const before = storedCopy(stored, `before-${c.name}.dcm`);
      const regions = [
        { x: 2, y: 3, width: 10, height: 6 },
        { x: original.columns - 8, y: original.rows - 5, width: 8, height: 5 },
      ];
      const res = await blank(people.member, stored, { regions });
      expect(res.statusCode, res.body).toBe(200);
      const report = res.json();
      expect(report.blanked_regions).toEqual(regions.map((r) => ({ ...r, blanked_at: expect.any(String) })));
      expect(report.pixel_data_decompressed).toBe(c.syntax !== EXPLICIT_LE);
      const listed = await t.app.inject({
        method: 'GET',
        url: `/api/v1/uploads/${stored}/deidentification`,
        headers: { ...people.viewer.auth, [WORKSPACE_HEADER]: team },
      });
      expect(listed.json().blanked_regions).toEqual(report.blanked_regions);

      const after = storedCopy(stored, `after-${c.name}.dcm`);
      expect(dcmdumpValue(after, '0002,0010')).toBe(EXPLICIT_LE);
      const beforeErrors = dciodvfyErrors(before);
      expect([...dciodvfyErrors(after)].filter((error) => !beforeErrors.has(error))).toEqual([]);
      const out = readWithPydicom(after);
      expect(out).toMatchObject({ frames: original.frames, rows: original.rows, columns: original.columns });
      let blanked = 0;
      for (let f = 0; f < out.frames; f++)
        for (let y = 0; y < out.rows; y++)
          for (let x = 0; x < out.columns; x++)
            for (let s = 0; s < out.samples; s++) {
              const value = sampleAt(out, f, x, y, s);
              if (regions.some((r) => inside(r, x, y))) {
                expect(value).toBe(0);
                blanked++;
              } else if (value !== sampleAt(original, f, x, y, s)) {
                expect.fail(`frame ${f} (${x}, ${y}) changed outside the regions`);
              }
            }
      expect(blanked).toBe((60 + 40) * out.frames * out.samples);
      // The listed size and hash are the new file's.
      const item = (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/uploads',
          headers: { ...people.member.auth, [WORKSPACE_HEADER]: team },
        })
      )
        .json<{ stored_filename: string; size_bytes: number }[]>()
        .find((i) => i.stored_filename === stored);
      expect(item?.size_bytes).toBe(readFileSync(after).length);
      // On the team's audit log, with who did it.
      const log = await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${team}/audit?limit=200`,
        headers: people.admin.auth,
      });
      expect(log.statusCode, log.body).toBe(200);
      expect(JSON.stringify(log.json())).toContain('upload.blank_regions');
    }, 60_000);
  }

  it('is for admins and members: reviewers and viewers are refused, another workspace finds nothing', async () => {
    const stored = await upload(path.join(PYDICOM, 'MR_small.dcm'));
    const regions = [{ x: 0, y: 0, width: 4, height: 4 }];
    expect((await blank(people.admin, stored, { regions })).statusCode).toBe(200);
    expect((await blank(people.member, stored, { regions })).statusCode).toBe(200);
    for (const role of ['reviewer', 'viewer'] as const) {
      const res = await blank(people[role], stored, { regions });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toHaveProperty('detail');
    }
    // Not a member of the team: the workspace is not found; in their own workspace, the image is not found.
    expect((await blank(people.outsider, stored, { regions })).statusCode).toBe(404);
    const own = await blank(people.outsider, stored, { regions }, null);
    expect(own.statusCode).toBe(404);
    expect(own.json()).toEqual({ detail: 'Image not found' });
    const unauthenticated = await t.app.inject({
      method: 'POST',
      url: `/api/v1/uploads/${stored}/deidentification/regions`,
      payload: { regions },
    });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('refuses rectangles outside the image, malformed ones and too many, with a JSON detail', async () => {
    const stored = await upload(path.join(PYDICOM, 'CT_small.dcm'));
    const outside = await blank(people.member, stored, { regions: [{ x: 120, y: 0, width: 9, height: 4 }] });
    expect(outside.statusCode).toBe(422);
    expect(outside.json()).toEqual({ detail: 'Region 1 lies outside the 128 × 128 image.' });
    for (const payload of [
      {},
      { regions: [] },
      { regions: [{ x: -1, y: 0, width: 4, height: 4 }] },
      { regions: [{ x: 0, y: 0, width: 0, height: 4 }] },
      { regions: [{ x: 0.5, y: 0, width: 4, height: 4 }] },
      { regions: [{ x: '0', y: 0, width: 4, height: 4 }] },
      { regions: Array.from({ length: 51 }, () => ({ x: 0, y: 0, width: 1, height: 1 })) },
    ]) {
      const res = await blank(people.member, stored, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toHaveProperty('detail');
    }
    const text = await blank(people.member, stored, 'not json at all');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toHaveProperty('detail');
    const forty = Array.from({ length: 40 }, (_, i) => ({ x: i, y: 0, width: 1, height: 1 }));
    expect((await blank(people.member, stored, { regions: forty })).statusCode).toBe(200);
    const over = await blank(people.member, stored, { regions: forty.slice(0, 11) });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ detail: 'At most 50 regions can be blanked in one file; 40 already are' });
  });

  it('serves the first frame as stored, pixel for pixel, to every reader of the workspace and nobody else', async () => {
    const stored = await upload(path.join(PYDICOM, 'SC_rgb_rle_2frame.dcm'));
    const frameOf = (user: TestUser, workspace: string | null = team) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/uploads/${stored}/deidentification/frame.png`,
        headers: { ...user.auth, ...(workspace && { [WORKSPACE_HEADER]: workspace }) },
      });
    const res = await frameOf(people.viewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const original = readWithPydicom(path.join(PYDICOM, 'SC_rgb_rle_2frame.dcm'));
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([original.columns, original.rows, 3]);
    // An 8-bit RGB frame is shown as its samples are: the same bytes, in the same places.
    for (const [x, y] of [
      [0, 0],
      [50, 30],
      [original.columns - 1, original.rows - 1],
    ] as const)
      for (let s = 0; s < 3; s++) expect(data[(y * info.width + x) * 3 + s]).toBe(sampleAt(original, 0, x, y, s));
    expect((await frameOf(people.outsider)).statusCode).toBe(404);
    expect((await frameOf(people.outsider, null)).json()).toEqual({ detail: 'Image not found' });
  });

  it('refuses a file kept as sent and an image that is not DICOM', async () => {
    // Only an admin may keep a file as sent.
    const kept = await upload(path.join(PYDICOM, 'CT_small.dcm'), '?deidentify=false', people.admin);
    const regions = [{ x: 0, y: 0, width: 4, height: 4 }];
    const res = await blank(people.member, kept, { regions });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/de-identified DICOM file/);
    const png = path.join(dir, 'picture.png');
    writeFileSync(png, await pngBytes());
    expect((await blank(people.member, await upload(png), { regions })).statusCode).toBe(409);
    const file = await uploadFile(t, people.outsider, 'x.dcm', readFileSync(path.join(PYDICOM, 'rtplan.dcm')));
    // A DICOM object without pixels: nothing to blank.
    const plan = await blank(people.outsider, file.json().stored_filename, { regions }, null);
    expect(plan.statusCode).toBe(422);
    expect(plan.json()).toEqual({ detail: 'This DICOM file has no pixel data to blank.' });
  });
});
