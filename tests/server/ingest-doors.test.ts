import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEEP_ORIGINAL_ADMINS_ONLY } from '../../contract/uploads.ts';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { SERVER_BUSY_DETAIL } from '../../server/modules/ingest/memory-budget.ts';
import { writeDicomFile } from '../fixtures/dicom-writer.ts';
import { writeNifti } from '../fixtures/nifti-writer.ts';
import { createTeamWorkspace, type TeamWorkspace } from './helpers/team-workspace.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { dicomBytes, multipartBody, niftiGzBytes, pngBytes, uploadFile } from './uploads-fixtures.ts';

const ROUTES = ['/api/v1/uploads', '/api/v1/uploads/series'] as const;

/** An MR slice of John Doe's (MRN778899), series 1, instance 1, with a pixel. */
function johnDoeSlice(): Buffer {
  return Buffer.from(
    writeDicomFile({
      syntax: 'explicit-le',
      elements: [
        { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' },
        { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.9.1234.1.3' },
        { tag: '00080020', vr: 'DA', value: '20240115' },
        { tag: '00080050', vr: 'SH', value: 'ACC-4411' },
        { tag: '00080060', vr: 'CS', value: 'MR' },
        { tag: '00100010', vr: 'PN', value: 'DOE^JOHN' },
        { tag: '00100020', vr: 'LO', value: 'MRN778899' },
        { tag: '0020000d', vr: 'UI', value: '1.2.826.0.1.3680043.9.1234.1.1' },
        { tag: '0020000e', vr: 'UI', value: '1.2.826.0.1.3680043.9.1234.1.2' },
        { tag: '00200011', vr: 'IS', value: '1' },
        { tag: '00200013', vr: 'IS', value: '1' },
        { tag: '00280002', vr: 'US', value: [1] },
        { tag: '00280010', vr: 'US', value: [2] },
        { tag: '00280011', vr: 'US', value: [2] },
        { tag: '00280100', vr: 'US', value: [8] },
        { tag: '00280101', vr: 'US', value: [8] },
        { tag: '00280103', vr: 'US', value: [0] },
        { tag: '7fe00010', vr: 'OB', value: Uint8Array.from([1, 2, 3, 4]) },
      ],
    }),
  );
}

describe('the multipart doors refuse what they cannot read with 400', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_RATE_PER_MINUTE: '10000' });
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  for (const url of ROUTES) {
    it(`answers 400 to a boundary over 256 characters on ${url}`, async () => {
      const boundary = 'b'.repeat(300);
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.dcm"\r\n\r\n`),
        dicomBytes(),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...user.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('detail');
    });

    it(`answers 400 to a body cut short on ${url}`, async () => {
      const body = multipartBody([{ field: 'file', filename: 'x.dcm', content: dicomBytes() }]);
      const cut = body.payload.subarray(0, Math.floor(body.payload.length / 2));
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...user.auth, ...body.headers },
        payload: cut,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'The upload could not be read' });
    });

    it(`answers below 500 to bodies cut anywhere, whatever the file, on ${url}`, async () => {
      const files = [
        { filename: 'a.png', content: await pngBytes(16) },
        { filename: 'x.dcm', content: dicomBytes() },
        { filename: 'y.nii.gz', content: niftiGzBytes() },
        { filename: 'z.bmp', content: Buffer.concat([Buffer.from('BM'), Buffer.alloc(300, 1)]) },
      ];
      const statuses = new Set<number>();
      for (const file of files) {
        const body = multipartBody([{ field: 'file', ...file }]);
        for (let cut = 1; cut < body.payload.length; cut += Math.ceil(body.payload.length / 24)) {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...user.auth, ...body.headers },
            payload: body.payload.subarray(0, cut),
          });
          statuses.add(res.statusCode);
          // Stored only when every byte of the file and the delimiter after it arrived (only the final "--" missing).
          const whole = cut >= body.payload.length - '--\r\n'.length;
          expect([400, 413, 415, ...(whole ? [201] : [])], `${file.filename} cut at ${cut}`).toContain(res.statusCode);
        }
      }
      expect(statuses.has(400)).toBe(true);
    });
  }
});

describe('the per-account upload rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_RATE_PER_MINUTE: '3' });
  });
  afterAll(async () => t.close());

  it('answers 429 past UPLOAD_RATE_PER_MINUTE uploads a minute, single files and series together, per account', async () => {
    const [busy, other] = [await createSignedInUser(t), await createSignedInUser(t)];
    expect((await uploadFile(t, busy, 'a.dcm', dicomBytes())).statusCode).toBe(201);
    expect((await uploadFile(t, busy, 'b.dcm', dicomBytes())).statusCode).toBe(201);
    const body = multipartBody([{ field: 'file', filename: 'c.dcm', content: dicomBytes() }]);
    const series = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...busy.auth, ...body.headers },
      payload: body.payload,
    });
    expect(series.statusCode).toBe(201);
    const limited = await uploadFile(t, busy, 'd.dcm', dicomBytes());
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    // Another account is counted on its own.
    expect((await uploadFile(t, other, 'e.dcm', dicomBytes())).statusCode).toBe(201);
  });
});

describe('keeping files as sent (deidentify=false)', () => {
  let t: TestApp;
  let team: TeamWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    team = await createTeamWorkspace(t);
  });
  afterAll(async () => t.close());

  const keep = (who: TestUser, url: string, query = '?deidentify=false') => {
    const body = multipartBody([{ field: 'file', filename: 'DOE_JOHN_MRN778899.dcm', content: johnDoeSlice() }]);
    return t.app.inject({
      method: 'POST',
      url: `${url}${query}`,
      headers: { ...who.auth, ...body.headers, [WORKSPACE_HEADER]: team.id },
      payload: body.payload,
    });
  };

  for (const url of ROUTES) {
    it(`is refused to a member with 403 on ${url}`, async () => {
      const res = await keep(team.people.member, url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: KEEP_ORIGINAL_ADMINS_ONLY });
    });

    it(`is an admin's choice, recorded in the audit log, on ${url}`, async () => {
      const res = await keep(team.people.admin, url);
      expect(res.statusCode).toBe(201);
      const item = [res.json()].flat()[0] as { stored_filename: string; original_name_guess: string };
      expect(item.original_name_guess).toBe('DOE_JOHN_MRN778899.dcm');
      const events = await t.app.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.workspaceId, team.id), eq(auditEvents.action, 'upload.create')));
      const event = events.find((e) => (e.detail as Record<string, unknown>).stored_filename === item.stored_filename);
      expect(event?.detail).toMatchObject({ kept_original: true });
      expect(event?.userId).toBe(team.people.admin.id);
    });

    it(`refuses a value other than true or false with 400 on ${url}`, async () => {
      expect((await keep(team.people.admin, url, '?deidentify=no')).statusCode).toBe(400);
    });
  }

  it('is declared and described in the OpenAPI document of both routes', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    for (const path of ['/api/v1/uploads', '/api/v1/uploads/series']) {
      const parameters = doc.paths[path].post.parameters as { name: string; in: string; description?: string }[];
      const declared = parameters.find((p) => p.name === 'deidentify');
      expect(declared?.in).toBe('query');
      expect(declared?.description).toMatch(/admin/i);
    }
  });
});

describe('the name an upload is listed with', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  const nameOf = async (name: string, content: Buffer) => {
    const res = await uploadFile(t, user, name, content);
    expect(res.statusCode).toBe(201);
    return res.json<{ original_name_guess: string }>().original_name_guess;
  };

  it("keeps a researcher's name that identifies no one", async () => {
    expect(await nameOf('sub-23_T1w.dcm', johnDoeSlice())).toBe('sub-23_T1w.dcm');
  });

  it("drops the patient's name and ID, and names the same instance the same way every time", async () => {
    const first = await nameOf('DOE_JOHN_MRN778899.dcm', johnDoeSlice());
    expect(first).not.toMatch(/DOE|JOHN|778899/i);
    expect(first).toMatch(/^MR_S0001_I0001_[0-9a-f]{8}\.dcm$/);
    expect(await nameOf('DOE_JOHN_MRN778899.dcm', johnDoeSlice())).toBe(first);
  });

  it('keeps what is left beside the identifiers', async () => {
    expect(await nameOf('DOE_JOHN_2024-01-15_ACC-4411_flair.dcm', johnDoeSlice())).toBe('flair.dcm');
  });

  it("drops from a NIfTI's name what its own header says", async () => {
    const nifti = Buffer.from(writeNifti({ dims: [2, 2, 2], values: new Array(8).fill(1), description: 'DOE^JOHN' }));
    expect(await nameOf('scan_DOE_JOHN.nii', nifti)).toBe('scan.nii');
    expect(await nameOf('DOE_JOHN.nii', nifti)).toMatch(/^NIfTI_[0-9a-f]{8}\.nii$/);
    expect(await nameOf('DOE_JOHN.nii', nifti)).toBe(await nameOf('DOE_JOHN.nii', nifti));
  });
});

describe('the memory budget every door shares', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_MEMORY_BUDGET_BYTES: String(1024 * 1024) });
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  it('answers 503 busy to a series whose parts would hold more than the budget, and takes one that fits', async () => {
    const part = Buffer.alloc(600 * 1024, 7);
    const body = multipartBody([
      { field: 'file', filename: 'one.dcm', content: part },
      { field: 'file', filename: 'two.dcm', content: part },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: SERVER_BUSY_DETAIL });
    // All of it was given back: a small series goes through.
    const small = multipartBody([{ field: 'file', filename: 'slice.dcm', content: dicomBytes() }]);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...user.auth, ...small.headers },
      payload: small.payload,
    });
    expect(ok.statusCode).toBe(201);
  });
});
