import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { createDeidentificationRepository } from '../../server/modules/deidentification/deidentification.repository.ts';
import { createUploadsRepository } from '../../server/modules/uploads/uploads.repository.ts';
import { uploads } from '../../server/modules/uploads/uploads.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import {
  dicomBytes,
  executableBytes,
  multipartBody,
  niftiBytes,
  niftiGzBytes,
  pngBytes,
  uploadFile,
} from './uploads-fixtures.ts';

describe('POST /uploads', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024) });
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  const storedFiles = async () => {
    const names = await readdir(path.join(t.dataDir, 'uploads', 'originals')).catch(() => [] as string[]);
    return names;
  };
  const tempFiles = async () => readdir(path.join(t.dataDir, 'uploads', '.tmp')).catch(() => [] as string[]);

  it('stores a PNG with a server-made name, its size and SHA-256, and lists it', async () => {
    const png = await pngBytes();
    const res = await uploadFile(t, user, 'Knee MRI.png', png);
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({ original_name_guess: 'Knee MRI.png', extension: '.png', size_bytes: png.length });
    expect(item.stored_filename).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(item.url).toBe(`/api/v1/uploads/${item.stored_filename}`);
    const [row] = await t.app.db.select().from(uploads).where(eq(uploads.storedFilename, item.stored_filename));
    const { createHash } = await import('node:crypto');
    expect(row?.sha256).toBe(createHash('sha256').update(png).digest('hex'));
    expect(row?.format).toBe('png');
  });

  it('accepts .nii.gz, .nii and .dcm files whose content matches', async () => {
    for (const [name, bytes, ext] of [
      ['brain.nii.gz', niftiGzBytes(), '.nii.gz'],
      ['brain.NII', niftiBytes(), '.nii'],
      ['chest.dcm', dicomBytes(), '.dcm'],
    ] as const) {
      const res = await uploadFile(t, user, name, bytes);
      expect(res.statusCode, name).toBe(201);
      expect(res.json().extension).toBe(ext);
    }
  });

  it('stores a path-traversal name harmlessly, keeping only the last segment', async () => {
    const res = await uploadFile(t, user, '../../etc/passwd.png', await pngBytes());
    expect(res.statusCode).toBe(201);
    expect(res.json().original_name_guess).toBe('passwd.png');
    expect(res.json().stored_filename).not.toContain('passwd');
    expect(await storedFiles()).toContain(res.json().stored_filename);
  });

  it('refuses an empty file with 400', async () => {
    const before = (await storedFiles()).length;
    const res = await uploadFile(t, user, 'empty.png', Buffer.alloc(0));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'The file is empty' });
    expect((await storedFiles()).length).toBe(before);
  });

  it('refuses a file over UPLOAD_MAX_BYTES with 413 and removes the partial file', async () => {
    const before = (await storedFiles()).length;
    const big = Buffer.concat([await pngBytes(), Buffer.alloc(70 * 1024, 1)]);
    const res = await uploadFile(t, user, 'big.png', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'This file is larger than the 0.06 MB limit' });
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: user.auth });
    expect(list.headers['x-upload-max-bytes']).toBe(String(64 * 1024));
    expect((await storedFiles()).length).toBe(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses an unsupported extension with 415', async () => {
    const res = await uploadFile(t, user, 'notes.exe', executableBytes());
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toContain('This file type is not supported');
  });

  it('refuses a PNG renamed to .dcm with 415', async () => {
    const res = await uploadFile(t, user, 'fake.dcm', await pngBytes());
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'The content of this file does not match its .dcm extension' });
  });

  it('refuses an executable renamed to .png with 415 and keeps nothing', async () => {
    const before = (await storedFiles()).length;
    const res = await uploadFile(t, user, 'photo.png', executableBytes());
    expect(res.statusCode).toBe(415);
    expect((await storedFiles()).length).toBe(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses a second file part with 400 and keeps neither', async () => {
    const before = (await storedFiles()).length;
    const png = await pngBytes();
    const body = multipartBody([
      { field: 'file', filename: 'a.png', content: png },
      { field: 'file', filename: 'b.png', content: png },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Send exactly one file in the "file" field' });
    expect((await storedFiles()).length).toBe(before);
  });

  it('refuses a request without a file part, or not multipart, with 400', async () => {
    const body = multipartBody([{ field: 'note', content: 'hello' }]);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(missing.statusCode).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/uploads', headers: user.auth, payload: { a: 1 } });
    expect(json.statusCode).toBe(400);
  });

  it('refuses an anonymous upload with 401', async () => {
    const body = multipartBody([{ field: 'file', filename: 'a.png', content: await pngBytes() }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: body.headers,
      payload: body.payload,
    });
    expect(res.statusCode).toBe(401);
  });

  it('writes every accepted upload to the audit log', async () => {
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'upload.create'));
    expect(events.length).toBe(5);
    expect(events.every((e) => e.userId === user.id)).toBe(true);
  });

  it('records every one of a DICOM series sent in parallel, each with its audit event', async () => {
    const before = (await t.app.db.select().from(uploads).where(eq(uploads.ownerId, user.id))).length;
    const dicom = await dicomBytes();
    const sent = await Promise.all(Array.from({ length: 8 }, (_, i) => uploadFile(t, user, `series-${i}.dcm`, dicom)));
    expect(sent.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const rows = await t.app.db.select().from(uploads).where(eq(uploads.ownerId, user.id));
    expect(rows.length).toBe(before + 8);
    const names = new Set(sent.map((r) => r.json().stored_filename));
    // Rows written together by one statement each keep their own values.
    const nameOf = new Map(rows.map((row) => [row.storedFilename, row.originalName]));
    for (const answer of sent) {
      expect(nameOf.get(answer.json().stored_filename)).toBe(answer.json().original_name_guess);
    }
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'upload.create'));
    expect(events.filter((e) => names.has((e.detail as { stored_filename: string }).stored_filename)).length).toBe(8);
    const listed = (await t.app.inject({ url: '/api/v1/uploads', headers: user.auth })).json();
    expect(listed.filter((item: { stored_filename: string }) => names.has(item.stored_filename)).length).toBe(8);
  });
});

describe('recording an upload', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  it('keeps neither the upload nor its audit event when its report cannot be recorded', async () => {
    const first = await uploadFile(t, user, 'a.png', await pngBytes());
    const [stored] = await t.app.db
      .select()
      .from(uploads)
      .where(eq(uploads.storedFilename, first.json().stored_filename));
    const storedFilename = `${randomUUID()}.dcm`;
    const row = { ...stored!, id: randomUUID(), storedFilename, createdAt: new Date() };
    const report = { profile: 'basic', fileName: null } as never;
    // The report names an upload that does not exist: its foreign key fails, and with it the whole statement.
    const orphanReport = createDeidentificationRepository({ db: t.app.db }).insertOf(randomUUID(), report);
    await expect(
      createUploadsRepository({ db: t.app.db }).insert(
        row,
        { userId: user.id, action: 'upload.create', ip: '127.0.0.1', detail: { stored_filename: storedFilename } },
        orphanReport,
      ),
    ).rejects.toThrow();
    expect(await t.app.db.select().from(uploads).where(eq(uploads.storedFilename, storedFilename))).toEqual([]);
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'upload.create'));
    expect(events.map((e) => (e.detail as { stored_filename: string }).stored_filename)).not.toContain(storedFilename);
    expect(events).toHaveLength(1);
  });
});
