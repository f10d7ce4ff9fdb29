import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { seriesFiles } from '../fixtures/dicom-series.ts';
import { phantomDicom } from '../fixtures/upload-images.ts';
import { multipartBody } from '../fixtures/multipart-body.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t);
  stranger = await createSignedInUser(t);
});
afterAll(() => t.close());

const reportOf = (user: TestUser, storedFilename: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/uploads/${storedFilename}/deidentification`, headers: user.auth });

describe('the de-identification report and name of an upload', () => {
  it('names a DICOM whose sent name holds only its identifiers from its de-identified values, and reports what was done', async () => {
    // The phantom's patient is DOE^JANE^MARIE, ID PID-7734921, studied on 2024-01-15.
    const res = await uploadFile(t, owner, 'DOE_JANE_PID-7734921_20240115.dcm', await phantomDicom());
    expect(res.statusCode).toBe(201);
    const item = res.json<{ stored_filename: string; original_name_guess: string }>();
    // Modality, then the first eight hex digits of the SHA-256 of the remapped SOP Instance UID.
    expect(item.original_name_guess).toMatch(/^MR_[0-9a-f]{8}\.dcm$/);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: owner.auth });
    expect(list.body).not.toContain('DOE_JANE');
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}`,
      headers: owner.auth,
    });
    expect(download.headers['content-disposition'] ?? '').not.toContain('DOE_JANE');

    const report = await reportOf(owner, item.stored_filename);
    expect(report.statusCode).toBe(200);
    const body = report.json();
    expect(body.profile).toContain('Basic Application Level Confidentiality Profile');
    expect(body.iod).toBe('MR Image');
    expect(body.emptied).toContainEqual({ tag: '(0010,0010)', name: "Patient's Name", count: 1 });
    expect(body.uids_remapped).toBeGreaterThanOrEqual(3);
    expect(body.private_tags_dropped).toBeGreaterThan(0);
    expect(body.uid_attributes.map((a: { tag: string }) => a.tag)).toContain('(0020,000D)');
  });

  it('gives the slices of one series the names they were sent with, without the patient', async () => {
    const names = [];
    for (const slice of seriesFiles({ slices: 3, patientName: 'DOE^JOHN' })) {
      const res = await uploadFile(t, owner, `DOE_JOHN_${slice.name}`, Buffer.from(slice.bytes));
      expect(res.statusCode).toBe(201);
      names.push(res.json<{ original_name_guess: string }>().original_name_guess);
    }
    expect(new Set(names).size).toBe(3);
    expect(names.sort()).toEqual(['IMG0001.dcm', 'IMG0002.dcm', 'IMG0003.dcm']);
    expect(names.join()).not.toMatch(/DOE|JOHN/);
  });

  it("answers 404 for someone else's upload, an unknown one, and one kept as sent", async () => {
    const item = (await uploadFile(t, owner, 'scan.dcm', await phantomDicom())).json<{ stored_filename: string }>();
    expect((await reportOf(stranger, item.stored_filename)).json()).toEqual({ detail: 'Image not found' });
    expect((await reportOf(stranger, item.stored_filename)).statusCode).toBe(404);
    expect((await reportOf(owner, 'no-such-upload.dcm')).statusCode).toBe(404);

    const body = multipartBody([{ field: 'file', filename: 'DOE_JOHN_MRN778899.dcm', content: await phantomDicom() }]);
    const kept = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads?deidentify=false',
      headers: { ...owner.auth, ...body.headers },
      payload: body.payload,
    });
    expect(kept.statusCode).toBe(201);
    const keptItem = kept.json<{ stored_filename: string; original_name_guess: string }>();
    expect(keptItem.original_name_guess).toBe('DOE_JOHN_MRN778899.dcm');
    const missing = await reportOf(owner, keptItem.stored_filename);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'This image has no de-identification report' });
    const events = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, owner.id), eq(auditEvents.action, 'upload.create')));
    const event = events.find(
      (e) => (e.detail as Record<string, unknown>).stored_filename === keptItem.stored_filename,
    );
    expect(event?.detail).toMatchObject({ kept_original: true, original_name: 'DOE_JOHN_MRN778899.dcm' });
  });

  it('needs a signed-in caller', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/uploads/x.dcm/deidentification' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('detail');
  });
});
