// After blanking by hand, a member confirms no other burned-in text remains: only then does Burned In Annotation
// (0028,0301) read NO in the stored file (read back by pydicom and dcmtk) and the image leave the flagged list.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { dciodvfyErrors, dcmdumpValue, readWithPydicom, sampleAt } from '../fixtures/pydicom-pixels.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createTeamWorkspace, type TeamPerson } from './helpers/team-workspace.ts';
import type { TestUser } from './helpers/users.ts';
import { multipartBody } from './uploads-fixtures.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

let t: TestApp;
let dir: string;
let team: string;
let people: Record<TeamPerson, TestUser>;

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-confirm-'));
  ({ id: team, people } = await createTeamWorkspace(t, { name: 'Redaction', names: { member: 'Grace Hopper' } }));
});
afterAll(() => t.close());

/** pydicom's file `source`, through the dcmtk tool `tool` (args, then input and output) when given. */
function converted(source: string, name: string, ...tools: string[][]): string {
  let file = path.join(PYDICOM, source);
  tools.forEach((tool, i) => {
    const out = path.join(dir, `${i}-${name}`);
    execFileSync(tool[0]!, [...tool.slice(1), file, out]);
    file = out;
  });
  return file;
}

/** Burned In Annotation as pydicom reads it ('' when absent). */
function burnedInAnnotation(file: string): string {
  const run = spawnSync(
    '/usr/bin/python3',
    ['-c', 'import sys, pydicom; print(pydicom.dcmread(sys.argv[1]).get("BurnedInAnnotation", ""))', file],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim();
}

async function upload(file: string): Promise<string> {
  const body = multipartBody([{ field: 'file', filename: 'scan.dcm', content: readFileSync(file) }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...people.member.auth, ...body.headers, [WORKSPACE_HEADER]: team },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ stored_filename: string }>().stored_filename;
}

const post = (user: TestUser, url: string, payload?: object, workspace: string | null = team) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: { ...user.auth, ...(workspace && { [WORKSPACE_HEADER]: workspace }) },
    ...(payload && { payload }),
  });
const confirm = (user: TestUser, stored: string, workspace: string | null = team) =>
  post(user, `/uploads/${stored}/deidentification/confirm`, undefined, workspace);
const blank = (stored: string) =>
  post(people.member, `/uploads/${stored}/deidentification/regions`, {
    regions: [{ x: 2, y: 3, width: 10, height: 6 }],
  });

async function listed(stored: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/uploads',
    headers: { ...people.viewer.auth, [WORKSPACE_HEADER]: team },
  });
  return res
    .json<{ stored_filename: string; identifiable?: boolean; size_bytes: number }[]>()
    .find((i) => i.stored_filename === stored)!;
}

function storedCopy(stored: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(stored))));
  return file;
}

describe('confirming an image free of burned-in text after blanking by hand', () => {
  const cases = [
    // Explicit VR Little Endian, kept native: the value is overwritten in place.
    { name: 'CT_small.dcm marked YES', source: 'CT_small.dcm', tools: [] as string[][] },
    // Implicit VR Little Endian.
    { name: 'MR_small_implicit.dcm marked YES', source: 'MR_small_implicit.dcm', tools: [] },
    // RLE Lossless by dcmtk: decoded and stored as Explicit VR Little Endian by the blanking.
    { name: 'MR_small.dcm via dcmcrle, marked YES', source: 'MR_small.dcm', tools: [['dcmcrle']] },
  ];
  for (const c of cases) {
    it(`${c.name}: NO only after confirming, the flag gone, the pixels as blanked`, async () => {
      const input = converted(c.source, c.source, ...c.tools);
      // dcmodify edits in place: a copy is marked, the source stays as it was.
      const marked = path.join(dir, `yes-${c.name}.dcm`);
      writeFileSync(marked, readFileSync(input));
      execFileSync('dcmodify', ['-nb', '-i', '(0028,0301)=YES', marked]);
      expect(burnedInAnnotation(marked)).toBe('YES');
      const original = readWithPydicom(path.join(PYDICOM, c.source));
      const stored = await upload(marked);
      expect(burnedInAnnotation(storedCopy(stored, `arrived-${c.name}.dcm`))).toBe('YES');
      expect((await listed(stored)).identifiable).toBe(true);

      // Nothing blanked by hand yet: refused, and nothing changes.
      const early = await confirm(people.member, stored);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual({ detail: 'Blank the burned-in text by hand before confirming that none remains' });
      expect((await blank(stored)).statusCode).toBe(200);
      const blanked = storedCopy(stored, `blanked-${c.name}.dcm`);
      // Blanking alone does not call the image clean.
      expect(burnedInAnnotation(blanked)).toBe('YES');
      expect((await listed(stored)).identifiable).toBe(true);

      const res = await confirm(people.member, stored);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().confirmed_clean).toEqual({ by: 'Grace Hopper', at: expect.any(String) });
      expect(res.json().burned_in_annotation).toBe('NO');
      const after = storedCopy(stored, `confirmed-${c.name}.dcm`);
      expect(burnedInAnnotation(after)).toBe('NO');
      expect(dcmdumpValue(after, '0028,0301')).toMatch(/^NO\s*$/);
      // The rest of the file as it was after blanking: no new dciodvfy error, the same pixels.
      const beforeErrors = dciodvfyErrors(blanked);
      expect([...dciodvfyErrors(after)].filter((e) => !beforeErrors.has(e))).toEqual([]);
      const out = readWithPydicom(after);
      expect(out).toMatchObject({ rows: original.rows, columns: original.columns });
      expect(sampleAt(out, 0, 5, 5)).toBe(0);
      expect(sampleAt(out, 0, 40, 40)).toBe(sampleAt(original, 0, 40, 40));
      const item = await listed(stored);
      expect(item.identifiable).toBeUndefined();
      expect(item.size_bytes).toBe(readFileSync(after).length);
      // Who and when, in the report every reader sees and on the team's audit log.
      const report = await t.app.inject({
        method: 'GET',
        url: `/api/v1/uploads/${stored}/deidentification`,
        headers: { ...people.viewer.auth, [WORKSPACE_HEADER]: team },
      });
      expect(report.json().confirmed_clean).toEqual(res.json().confirmed_clean);
      const log = await t.app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${team}/audit?limit=200`,
        headers: people.admin.auth,
      });
      expect(JSON.stringify(log.json())).toContain('upload.confirm_clean');
      const again = await confirm(people.member, stored);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toHaveProperty('detail');
    }, 60_000);
  }

  it('is for admins and members: reviewers and viewers are refused, another workspace finds nothing', async () => {
    const marked = path.join(dir, 'roles.dcm');
    writeFileSync(marked, readFileSync(path.join(PYDICOM, 'CT_small.dcm')));
    execFileSync('dcmodify', ['-nb', '-i', '(0028,0301)=YES', marked]);
    const stored = await upload(marked);
    expect((await blank(stored)).statusCode).toBe(200);
    for (const role of ['reviewer', 'viewer'] as const) {
      const res = await confirm(people[role], stored);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toHaveProperty('detail');
    }
    expect((await confirm(people.outsider, stored)).statusCode).toBe(404);
    const own = await confirm(people.outsider, stored, null);
    expect(own.statusCode).toBe(404);
    expect(own.json()).toEqual({ detail: 'Image not found' });
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/v1/uploads/${stored}/deidentification/confirm` });
    expect(anonymous.statusCode).toBe(401);
    // Still flagged and still YES after every refusal.
    expect((await listed(stored)).identifiable).toBe(true);
    expect(burnedInAnnotation(storedCopy(stored, 'roles-after.dcm'))).toBe('YES');
    expect((await confirm(people.admin, stored)).statusCode).toBe(200);
    expect((await listed(stored)).identifiable).toBeUndefined();
  }, 60_000);
});
