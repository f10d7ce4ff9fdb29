import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { DatabaseHandle } from '../../server/db/connect.ts';
import { BATCH_BUSY, BATCH_EMPTY, batchBusyIn } from '../../server/modules/qc/qc-batch.routes.ts';
import { BUILTIN_MODEL } from '../../server/modules/qc/qc-summary.ts';
import { createDiskStorage } from '../../server/storage/disk-storage.ts';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { addRicianNoise, cleanPhantom, toUint16 } from '../fixtures/phantoms.ts';
import { phantomDicom } from '../fixtures/upload-images.ts';
import type { TestApp } from './helpers/test-app.ts';
import { openTestDatabase } from './helpers/test-database.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes, uploadFile } from './uploads-fixtures.ts';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';

/** Apps built one after another over one database and one data folder, as a server restarted. */
let database: DatabaseHandle;
let dataDir: string;
const apps: TestApp[] = [];

async function startApp(): Promise<TestApp> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DIST_DIR: path.join(dataDir, 'no-dist') });
  const app = await buildApp(config, { db: database.db, storage: createDiskStorage(path.join(dataDir, 'uploads')) });
  await app.ready();
  const t: TestApp = {
    app,
    config,
    dataDir,
    clock: { now: () => new Date(), advance: () => undefined },
    close: () => app.close(),
  };
  apps.push(t);
  return t;
}

let t: TestApp;
let user: TestUser;
let slice: Buffer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'imageqc-batch-'));
  database = await openTestDatabase();
  t = await startApp();
  user = await createSignedInUser(t);
  const noisy = addRicianNoise(cleanPhantom({ size: 512, inner: 800, background: 0 }), 20, 3);
  slice = Buffer.from(await makeDicomImage({ width: 512, height: 512, samples: toUint16(noisy), bitsAllocated: 16 }));
});
afterAll(async () => {
  for (const each of apps) await each.app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

const get = (url: string, who = user) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: who.auth });
const post = (url: string, payload?: object, who = user) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });

/**
 * Uploads `count` copies, kept as sent (?deidentify=false, for admins: the uploader's personal workspace) unless
 * `keep` is false; either way they keep the names a search looks for, which identify no one.
 */
async function uploadMany(who: TestUser, count: number, prefix: string, bytes = slice, keep = true): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = multipartBody([{ field: 'file', filename: `${prefix}-${i}.dcm`, content: bytes }]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/uploads${keep ? '?deidentify=false' : ''}`,
      headers: { ...who.auth, ...body.headers },
      payload: body.payload,
    });
    names.push(res.json().stored_filename as string);
  }
  return names;
}

/** Polls a batch until `until` holds, returning every state seen. */
async function follow(id: string, until: (b: { status: string; checked: number }) => boolean, who = user) {
  const seen: { status: string; checked: number; errors: number; total: number }[] = [];
  for (let i = 0; i < 600; i++) {
    const batch = (await get(`/qc/batches/${id}`, who)).json();
    seen.push(batch);
    if (until(batch)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`batch ${id} never reached the state waited for: ${JSON.stringify(seen.at(-1))}`);
}
const over = (b: { status: string }) => b.status === 'done' || b.status === 'cancelled';

describe('a batch check of chosen images', () => {
  it('checks every image, shows its progress through the API and stores each result as a single check', async () => {
    const names = await uploadMany(user, 24, 'scan');
    const created = await post('/qc/batches', { scope: 'selection', stored_filenames: names });
    expect(created.statusCode).toBe(202);
    expect(created.json()).toMatchObject({ status: 'queued', scope: 'selection', total: 24, checked: 0 });
    const seen = await follow(created.json().id, over);
    const checked = seen.map((b) => b.checked);
    expect(checked).toEqual([...checked].sort((a, b) => a - b));
    expect(checked.some((n) => n > 0 && n < 24)).toBe(true);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ status: 'done', total: 24, checked: 24, errors: 0, engine: BUILTIN_MODEL });
    const results = (await get(`/qc/batches/${created.json().id}/results`)).json();
    // Twenty-four copies of one image: a verdict that differs says which, and why (seen once under load).
    const odd = results.items.filter((r: { verdict: string }) => r.verdict !== 'pass');
    expect((last as unknown as { pass: number }).pass, JSON.stringify(odd)).toBe(24);

    expect(results.total).toBe(24);
    expect(results.items.map((r: { stored_filename: string }) => r.stored_filename).sort()).toEqual([...names].sort());
    const first = results.items[0];
    expect(first).toMatchObject({ status: 'done', verdict: 'pass', model: BUILTIN_MODEL, error: null });
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.metrics.snr).toBeGreaterThan(0);
    const history = (await get(`/uploads/${first.stored_filename}/qc-results`)).json();
    expect(history).toHaveLength(1);
    expect(history[0].id).toBe(first.result_id);
    const page = (await get(`/qc/batches/${created.json().id}/results?offset=20&limit=10`)).json();
    expect(page.items).toHaveLength(4);
    expect((await get('/dashboard/metrics')).json().analyzed_images).toBeGreaterThanOrEqual(24);
  });

  it('checks a search or the whole library, and records an unreadable image as an error without stopping', async () => {
    const who = await createSignedInUser(t);
    await uploadMany(who, 3, 'knee', await phantomDicom());
    await uploadMany(who, 2, 'head_50%', await phantomDicom());
    const photo = (await uploadFile(t, who, 'photo.png', await pngBytes())).json().stored_filename;
    // A stored file damaged on disk after it arrived.
    await writeFile(path.join(dataDir, 'uploads', 'originals', photo), 'not an image any more');
    const search = await post('/qc/batches', { scope: 'search', query: 'KNEE' }, who);
    expect(search.json()).toMatchObject({ total: 3, query: 'KNEE' });
    await follow(search.json().id, over, who);
    // % and _ are looked for as themselves.
    const literal = await post('/qc/batches', { scope: 'search', query: '_50%' }, who);
    expect(literal.json().total).toBe(2);
    await follow(literal.json().id, over, who);
    expect((await post('/qc/batches', { scope: 'search', query: 'nothing like it' }, who)).json()).toEqual({
      detail: BATCH_EMPTY,
    });
    const all = await post('/qc/batches', { scope: 'library' }, who);
    expect(all.json().total).toBe(6);
    const done = (await follow(all.json().id, over, who)).at(-1)!;
    expect(done).toMatchObject({ status: 'done', checked: 5, errors: 1 });
    const results = (await get(`/qc/batches/${all.json().id}/results`, who)).json().items;
    expect(results.find((r: { stored_filename: string }) => r.stored_filename === photo)).toMatchObject({
      status: 'error',
      verdict: null,
      error: 'This file is not an image format the product can read.',
    });
  });

  it('refuses a second batch while one is unfinished, and lets it be cancelled', async () => {
    const names = await uploadMany(user, 60, 'long');
    const batch = (await post('/qc/batches', { scope: 'selection', stored_filenames: names })).json();
    const second = await post('/qc/batches', { scope: 'library' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ detail: BATCH_BUSY });
    await follow(batch.id, (b) => b.checked >= 2);
    const cancelled = await post(`/qc/batches/${batch.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect(cancelled.json().finished_at).not.toBeNull();
    // The images in flight finish (one per lane at most); nothing starts after them.
    const atCancel = cancelled.json().checked + cancelled.json().errors;
    let settled = -1;
    let after = cancelled.json();
    for (let i = 0; i < 40; i++) {
      after = (await get(`/qc/batches/${batch.id}`)).json();
      if (after.checked + after.errors === settled) break;
      settled = after.checked + after.errors;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    expect(after.status).toBe('cancelled');
    expect(settled - atCancel).toBeLessThanOrEqual(availableParallelism() + 1);
    expect(after.checked).toBeLessThan(60);
    const pending = (await get(`/qc/batches/${batch.id}/results`))
      .json()
      .items.filter((r: { status: string }) => r.status === 'pending');
    expect(pending.length).toBe(60 - after.checked - after.errors);
    // Cancelling again changes nothing; a new batch may start.
    expect((await post(`/qc/batches/${batch.id}/cancel`)).json()).toMatchObject({ status: 'cancelled' });
    const list = (await get('/qc/batches')).json();
    expect(list[0].id).toBe(batch.id);
  });
});

describe('one unfinished batch per user, across their workspaces', () => {
  /** A team workspace made by `admin`; its id. */
  const createTeam = async (admin: TestUser, name: string) =>
    (await post('/workspaces', { name }, admin)).json<{ id: string }>().id;

  it('says in which workspace the batch that blocks another runs, where the user can see and cancel it', async () => {
    const owner = await createSignedInUser(t);
    const team = await createTeam(owner, 'Neuro QC');
    const inTeam = { ...owner, auth: { ...owner.auth, [WORKSPACE_HEADER]: team } };
    const personal = (await get('/workspaces', owner))
      .json<{ name: string; personal: boolean }[]>()
      .find((w) => w.personal)!;
    await uploadMany(owner, 1, 'mine');
    const teamImages = await uploadMany(inTeam, 20, 'team');

    const running = await post('/qc/batches', { scope: 'selection', stored_filenames: teamImages }, inTeam);
    expect(running.statusCode).toBe(202);
    // In the personal workspace the team's batch is not listed and cannot be read: the refusal names the team.
    const refused = await post('/qc/batches', { scope: 'library' }, owner);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: batchBusyIn({ name: 'Neuro QC', personal: false }) });
    expect(refused.json().detail).toContain('“Neuro QC”');
    expect((await get('/qc/batches', owner)).json()).toEqual([]);
    expect((await get(`/qc/batches/${running.json().id}`, owner)).statusCode).toBe(404);
    // In the team workspace, the same refusal as ever; there the batch is seen and cancelled.
    const again = await post('/qc/batches', { scope: 'library' }, inTeam);
    expect(again.json()).toEqual({ detail: BATCH_BUSY });
    expect((await post(`/qc/batches/${running.json().id}/cancel`, undefined, inTeam)).json().status).toBe('cancelled');

    // The other way round: a batch in the personal workspace is named as such from the team.
    const mine = await post('/qc/batches', { scope: 'library' }, owner);
    expect(mine.statusCode).toBe(202);
    expect(mine.json().total).toBe(1);
    const fromTeam = await post('/qc/batches', { scope: 'library' }, inTeam);
    expect(fromTeam.statusCode).toBe(409);
    expect(fromTeam.json()).toEqual({ detail: batchBusyIn({ name: personal.name, personal: true }) });
    expect(fromTeam.json().detail).toContain('your personal workspace');
    await post(`/qc/batches/${mine.json().id}/cancel`, undefined, owner);
  });

  it('does not hold a user to a batch in a workspace they have left', async () => {
    const admin = await createSignedInUser(t);
    const leaver = await createSignedInUser(t);
    const team = await createTeam(admin, 'Left behind');
    await t.app.workspaces.addMember(team, leaver.id, 'member', new Date());
    const inTeam = { ...leaver, auth: { ...leaver.auth, [WORKSPACE_HEADER]: team } };
    // A member's uploads are de-identified: keeping originals is for admins.
    const images = await uploadMany(inTeam, 20, 'leaver', slice, false);
    await uploadMany(leaver, 1, 'own');
    const batch = await post('/qc/batches', { scope: 'selection', stored_filenames: images }, inTeam);
    expect(batch.statusCode).toBe(202);
    expect((await post('/qc/batches', { scope: 'library' }, leaver)).statusCode).toBe(409);
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${team}/members/${leaver.id}`,
      headers: inTeam.auth,
    });
    expect(left.statusCode, left.body).toBe(204);
    const own = await post('/qc/batches', { scope: 'library' }, leaver);
    expect(own.statusCode, own.body).toBe(202);
    await post(`/qc/batches/${own.json().id}/cancel`, undefined, leaver);
    const inTeamAdmin = { ...admin, auth: { ...admin.auth, [WORKSPACE_HEADER]: team } };
    await post(`/qc/batches/${batch.json().id}/cancel`, undefined, inTeamAdmin);
  });
});

describe('a batch survives a restart', () => {
  it('carries on where it stopped when a second app starts over the same database', async () => {
    const who = await createSignedInUser(t);
    const names = await uploadMany(who, 80, 'restart');
    const batch = (await post('/qc/batches', { scope: 'selection', stored_filenames: names }, who)).json();
    await follow(batch.id, (b) => b.checked >= 5, who);
    await t.app.close();
    const stopped = (await (await startAppWithoutResume()).json(batch.id)).checked;
    expect(stopped).toBeGreaterThanOrEqual(5);
    expect(stopped).toBeLessThan(80);

    t = await startApp();
    const done = (await follow(batch.id, over, who)).at(-1)!;
    expect(done).toMatchObject({ status: 'done', checked: 80, errors: 0 });
    // Each image was checked once: none twice across the restart.
    for (const name of names.slice(0, 10))
      expect((await get(`/uploads/${name}/qc-results`, who)).json()).toHaveLength(1);
  }, 60_000);
});

/** Reads a batch straight from the database while no app runs. */
async function startAppWithoutResume() {
  const { qcBatchItems } = await import('../../server/modules/qc/qc-batch.table.ts');
  const { and, eq, sql } = await import('drizzle-orm');
  return {
    async json(id: string) {
      const [row] = await database.db
        .select({ checked: sql<number>`count(*)::int` })
        .from(qcBatchItems)
        .where(and(eq(qcBatchItems.batchId, id), eq(qcBatchItems.status, 'done')));
      return row!;
    },
  };
}

describe('every route is scoped to the caller and answers bad input with a 4xx', () => {
  it("answers 404 for another user's batch, exactly as for an unknown one", async () => {
    const names = await uploadMany(user, 1, 'mine', await phantomDicom());
    const mine = (await post('/qc/batches', { scope: 'selection', stored_filenames: names })).json();
    await follow(mine.id, over);
    const other = await createSignedInUser(t);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/results'],
      ['POST', '/cancel'],
    ] as const) {
      const theirs = await t.app.inject({ method, url: `/api/v1/qc/batches/${mine.id}${suffix}`, headers: other.auth });
      expect(theirs.statusCode).toBe(404);
      const none = await t.app.inject({ method, url: `/api/v1/qc/batches/${unknown}${suffix}`, headers: user.auth });
      expect(theirs.json()).toEqual(none.json());
    }
    expect((await get('/qc/batches', other)).json()).toEqual([]);
    const foreign = await post('/qc/batches', { scope: 'selection', stored_filenames: names }, other);
    expect(foreign.statusCode).toBe(404);
    expect((await post('/qc/batches', { scope: 'library' }, other)).json()).toEqual({ detail: BATCH_EMPTY });
  });

  it('never answers 5xx to odd input', async () => {
    const bodies: unknown[] = [
      {},
      { scope: 'everything' },
      { scope: 'selection' },
      { scope: 'selection', stored_filenames: [] },
      { scope: 'selection', stored_filenames: ['a'.repeat(400)] },
      { scope: 'selection', stored_filenames: ['\u0000', "'; drop table uploads; --"] },
      { scope: 'search', query: '   ' },
      { scope: 'search', query: 42 },
      { scope: 'search', query: '\\' },
      { scope: 'search', query: 'a\u0000b' },
      { scope: 'search', query: '\ud800' },
      [],
      'text',
    ];
    for (const payload of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/qc/batches',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(payload)).toBeLessThan(500);
      expect(typeof res.json().detail).toBe('string');
    }
    for (const url of [
      '/qc/batches/not-a-uuid',
      '/qc/batches/1%27%20or%201=1',
      '/qc/batches/00000000-0000-4000-8000-000000000000/results?offset=-1',
      '/qc/batches/00000000-0000-4000-8000-000000000000/results?limit=abc',
      '/qc/batches/00000000-0000-4000-8000-000000000000/results?limit=100000',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/qc/batches' })).statusCode).toBe(401);
  });
});

describe('a batch is held by one server at a time, through its lease', () => {
  it('is not taken while another holds a live lease, and is taken once that lease has lapsed', async () => {
    const { createQcBatchRepository } = await import('../../server/modules/qc/qc-batch.repository.ts');
    const repo = createQcBatchRepository({ db: database.db });
    const who = await createSignedInUser(t);
    const [name] = await uploadMany(who, 1, 'leased', await phantomDicom());
    const [upload] = await t.app.db.query.uploads.findMany({ where: (u, { eq }) => eq(u.storedFilename, name!) });
    const now = new Date();
    const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
    // Made straight in the database, so no server here starts it.
    const owner = { ownerId: who.id, workspaceId: upload!.workspaceId };
    const batch = await repo.create(owner, { scope: 'library', query: null }, [upload!], now);
    expect(await repo.claim(batch.id, now, minutes(1))).toEqual({ ownerId: who.id });
    // A second server finds it held while the first one's lease runs…
    expect(await repo.claimable(now)).not.toContain(batch.id);
    expect(await repo.claim(batch.id, now, minutes(1))).toBeUndefined();
    // …and takes it once the lease has lapsed, as after a crash.
    expect(await repo.claimable(minutes(2))).toContain(batch.id);
    expect(await repo.claim(batch.id, minutes(2), minutes(3))).toEqual({ ownerId: who.id });
    // A cancelled batch is nobody's to take, and its lease cannot be renewed.
    await repo.cancel(owner.workspaceId, batch.id, minutes(2));
    expect(await repo.renew(batch.id, minutes(4))).toBe(false);
    expect(await repo.claimable(minutes(10))).not.toContain(batch.id);
  });
});
