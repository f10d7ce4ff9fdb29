import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditItem, AuditPage } from '../../contract/audit.ts';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { createAuditRepository } from '../../server/modules/audit/audit.repository.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createTeamWorkspace } from './helpers/team-workspace.ts';
import type { TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes } from './uploads-fixtures.ts';

let t: TestApp;
let png: Buffer;
let admin: TestUser;
let member: TestUser;
let reviewer: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let team: string;
let otherTeam: string;
let image: string;

function call(user: TestUser, method: string, url: string, workspace?: string, payload?: unknown) {
  return t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { ...user.auth, ...(workspace ? { [WORKSPACE_HEADER]: workspace } : {}) },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });
}

async function upload(user: TestUser, workspace: string, name: string): Promise<string> {
  const body = multipartBody([{ field: 'file', filename: name, content: png }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...user.auth, ...body.headers, [WORKSPACE_HEADER]: workspace },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().stored_filename;
}

async function signIn(user: TestUser, password = user.password) {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password } });
}

/** Every event of a workspace's log that the filters in `query` give, following the cursor page by page. */
async function wholeLog(workspace: string, query = '', pageSize = 50): Promise<AuditItem[]> {
  const items: AuditItem[] = [];
  let cursor: string | null = null;
  do {
    const res = await call(
      admin,
      'GET',
      `/workspaces/${workspace}/audit?limit=${pageSize}${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as AuditPage;
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  t = await createTestApp();
  png = await pngBytes(32);
  const created = await createTeamWorkspace(t, {
    // Names a spreadsheet would run as formulas, or that need quoting: the CSV must hold them as text.
    names: {
      admin: 'Ada Admin',
      member: '=HYPERLINK("http://x.example","click")',
      reviewer: 'Doe, "Rev"\nSecond line',
      viewer: '@Viewer',
      outsider: '-Outsider',
    },
  });
  team = created.id;
  ({ admin, member, reviewer, viewer, outsider } = created.people);
  otherTeam = (await call(outsider, 'POST', '/workspaces', undefined, { name: 'Elsewhere' })).json().id;

  image = await upload(member, team, 'brain.png');
  expect((await call(viewer, 'GET', `/uploads/${image}`, team)).statusCode).toBe(200);
  expect((await call(member, 'POST', `/uploads/${image}/share-links`, team)).statusCode).toBe(201);
  const check = await call(member, 'POST', '/llm/generate-messages', team, {
    model: 'x',
    messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `/api/v1/uploads/${image}` } }] }],
  });
  expect(check.statusCode, check.body).toBe(200);
  const rated = await call(reviewer, 'PUT', `/uploads/${image}/review/rating`, team, { rating: 'usable' });
  expect(rated.statusCode, rated.body).toBe(200);
  const doomed = await upload(admin, team, 'doomed.png');
  expect((await call(admin, 'DELETE', `/uploads/${doomed}`, team)).statusCode).toBe(204);
  const promote = await call(admin, 'PATCH', `/workspaces/${team}/members/${viewer.id}`, undefined, {
    role: 'reviewer',
  });
  expect(promote.statusCode).toBe(200);
  expect((await signIn(member)).statusCode).toBe(200);
  expect((await signIn(member, 'Wrong-Password-1')).statusCode).toBe(401);
  // The outsider's own workspace has its own events, which the team's log never shows.
  const theirs = await upload(outsider, otherTeam, 'theirs.png');
  expect((await call(outsider, 'GET', `/uploads/${theirs}`, otherTeam)).statusCode).toBe(200);
  expect((await signIn(outsider)).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('who sees a workspace audit log', () => {
  for (const [who, status] of [
    ['admin', 200],
    ['member', 403],
    ['reviewer', 403],
    ['viewer', 403],
    ['outsider', 404],
  ] as const) {
    it(`answers ${status} to the ${who}, for the page and the CSV`, async () => {
      const user = { admin, member, reviewer, viewer, outsider }[who];
      for (const path of ['audit', 'audit.csv', 'audit/actors']) {
        const res = await call(user, 'GET', `/workspaces/${team}/${path}`);
        expect(res.statusCode, res.body).toBe(status);
        if (status !== 200) {
          expect(res.json()).toEqual({ detail: status === 404 ? 'Workspace not found' : expect.any(String) });
          expect(res.body).not.toContain('brain.png');
        }
      }
    });
  }

  it('answers 404 to an admin asking for the log of a workspace they are not in, and 401 without a session', async () => {
    const res = await call(admin, 'GET', `/workspaces/${otherTeam}/audit`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Workspace not found' });
    const anonymous = await t.app.inject({ url: `/api/v1/workspaces/${team}/audit.csv` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("what a workspace's log holds", () => {
  it('records uploads, downloads, shares, QC runs, deletions, role changes and sign-ins, each by its actor', async () => {
    const log = await wholeLog(team);
    const seen = log.map((e) => `${e.action} ${e.actor?.id ?? 'nobody'}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        `upload.create ${member.id}`,
        `upload.download ${viewer.id}`,
        `share_link.create ${member.id}`,
        `qc.run ${member.id}`,
        `upload.create ${admin.id}`,
        `upload.delete ${admin.id}`,
        `workspace.member_update ${admin.id}`,
        `auth.login ${member.id}`,
        `auth.login_failed ${member.id}`,
        `workspace.create ${admin.id}`,
        `review.rate ${reviewer.id}`,
      ]),
    );
    const deletion = log.find((e) => e.action === 'upload.delete')!;
    expect(deletion).toMatchObject({
      kind: 'deletion',
      label: 'Deleted an image',
      detail: { original_name: 'doomed.png' },
    });
    expect(log.find((e) => e.action === 'qc.run')!.detail).toMatchObject({ stored_filename: image });
    expect(log.find((e) => e.action === 'workspace.member_update')!.detail).toMatchObject({
      member_id: viewer.id,
      role: 'reviewer',
    });
    // Newest first.
    const times = log.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("never shows another workspace's events, nor the sign-ins of someone who is not a member", async () => {
    const log = await wholeLog(team);
    expect(log.some((e) => e.actor?.id === outsider.id)).toBe(false);
    expect(JSON.stringify(log)).not.toContain('theirs.png');
    const [theirs] = await Promise.all([
      call(outsider, 'GET', `/workspaces/${otherTeam}/audit`).then((r) => r.json() as AuditPage),
    ]);
    const actions = theirs.items.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['upload.create', 'upload.download', 'auth.login']));
    expect(theirs.items.every((e) => e.actor?.id === outsider.id)).toBe(true);
  });

  it("shows a member's sign-in in each workspace they belong to, without the e-mail typed on a failure", async () => {
    const failed = (await wholeLog(team, '&kind=sign_in')).filter((e) => e.action === 'auth.login_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.actor?.id).toBe(member.id);
    expect(failed[0]!.detail).toEqual({ reason: 'credentials' });
    // The outsider signed in once: their own team sees it, the admin's team does not.
    const otherLog = (await call(outsider, 'GET', `/workspaces/${otherTeam}/audit?kind=sign_in`)).json() as AuditPage;
    expect(otherLog.items.map((e) => e.action)).toEqual(['auth.login']);
  });
});

describe('filters and pages', () => {
  it('filters by actor, by kind and by both', async () => {
    const byViewer = await wholeLog(team, `&actor=${viewer.id}`);
    expect(byViewer.map((e) => e.action)).toEqual(['upload.download']);
    const uploads = await wholeLog(team, '&kind=upload');
    expect(uploads.map((e) => e.actor?.id).sort()).toEqual([admin.id, member.id].sort());
    const memberQc = await wholeLog(team, `&kind=qc_run&actor=${member.id}`);
    expect(memberQc.map((e) => e.action)).toEqual(['qc.run']);
    const ratings = await wholeLog(team, `&kind=rating`);
    expect(ratings.map((e) => [e.action, e.actor?.id, e.label, e.detail.rating])).toEqual([
      ['review.rate', reviewer.id, 'Rated an image', 'usable'],
    ]);
    expect((await wholeLog(team, '&kind=membership')).map((e) => e.action).sort()).toEqual([
      'workspace.create',
      'workspace.member_update',
    ]);
  });

  it('filters by a date range: from inclusive, to exclusive', async () => {
    const audit = createAuditRepository({ db: t.app.db });
    const day = (d: string) => new Date(`${d}T12:00:00Z`);
    for (const d of ['2020-03-01', '2020-03-02', '2020-03-03'])
      await audit.record({ userId: admin.id, workspaceId: team, action: 'upload.download', ip: null, at: day(d) });
    const range = await wholeLog(team, `&from=2020-03-02T00:00:00Z&to=2020-03-03T12:00:00Z`);
    expect(range.map((e) => e.at)).toEqual(['2020-03-02T12:00:00.000Z']);
    const offset = await wholeLog(
      team,
      `&from=${encodeURIComponent('2020-03-02T13:00:00+02:00')}&to=2020-03-04T00:00:00Z`,
    );
    expect(offset.map((e) => e.at)).toEqual(['2020-03-03T12:00:00.000Z', '2020-03-02T12:00:00.000Z']);
  });

  it('pages through the log with the cursor without repeating or skipping an event', async () => {
    const whole = await wholeLog(team, '', 200);
    const paged = await wholeLog(team, '', 3);
    expect(paged.map((e) => e.id)).toEqual(whole.map((e) => e.id));
    expect(new Set(paged.map((e) => e.id)).size).toBe(paged.length);
    expect(whole.length).toBeGreaterThan(6);
  });

  it('answers bad filters with 400 and a detail, and a cursor of another workspace with an empty page', async () => {
    for (const query of ['actor=nope', 'kind=everything', 'from=yesterday', 'limit=0', 'limit=201', "cursor=1'or'1"]) {
      const res = await call(admin, 'GET', `/workspaces/${team}/audit?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
    const theirs = (await call(outsider, 'GET', `/workspaces/${otherTeam}/audit`)).json() as AuditPage;
    const res = await call(admin, 'GET', `/workspaces/${team}/audit?cursor=${theirs.items[0]!.id}`);
    expect(res.json()).toEqual({ items: [], next_cursor: null });
  });
});

describe('the CSV export', () => {
  it('is a dated attachment holding every event the filters give, quoted and safe to open in a spreadsheet', async () => {
    const res = await call(admin, 'GET', `/workspaces/${team}/audit.csv?kind=download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="lumenqc-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('time_utc,actor_name,actor_email,action,description,ip,detail');
    expect(res.body.endsWith('\r\n')).toBe(true);
    const downloads = await wholeLog(team, '&kind=download');
    expect(lines.filter((l) => /^\d{4}-/.test(l))).toHaveLength(downloads.length);
    // The viewer's name starts with @: kept as text behind an apostrophe.
    expect(res.body).toContain(`,'@Viewer,${viewer.email},upload.download,Downloaded an image,`);
  });

  it('quotes commas, quotes and line breaks, and neutralises = + - @ at the start of a cell', async () => {
    const res = await call(admin, 'GET', `/workspaces/${team}/audit.csv`);
    // A formula: apostrophe first, then quoted because it holds quotes and a comma.
    expect(res.body).toContain(`"'=HYPERLINK(""http://x.example"",""click"")",${member.email},`);
    // Comma, quotes and a line break inside one quoted cell.
    const audit = createAuditRepository({ db: t.app.db });
    await audit.record({
      userId: reviewer.id,
      workspaceId: team,
      action: 'upload.download',
      ip: '+1',
      detail: { original_name: 'a,"b".png' },
    });
    const quoted = await call(admin, 'GET', `/workspaces/${team}/audit.csv?actor=${reviewer.id}`);
    expect(quoted.body).toContain(
      `,"Doe, ""Rev""\nSecond line",${reviewer.email},upload.download,Downloaded an image,'+1,`,
    );
    expect(quoted.body).toContain(`"{""original_name"":""a,\\""b\\"".png""}"\r\n`);
    // No cell anywhere starts with a formula character.
    const cells = quoted.body.split(/,|\r\n/).map((c) => c.replace(/^"/, ''));
    expect(cells.filter((c) => /^[=+\-@]/.test(c))).toEqual([]);
  });
});

describe('batch checks belong to a workspace', () => {
  it('lists the workspace batches to its members and answers 404 to everyone else', async () => {
    const started = await call(member, 'POST', '/qc/batches', team, { scope: 'selection', stored_filenames: [image] });
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().id;
    // Any member of the workspace sees it, whoever started it.
    expect((await call(viewer, 'GET', '/qc/batches', team)).json().map((b: { id: string }) => b.id)).toContain(id);
    expect((await call(viewer, 'GET', `/qc/batches/${id}`, team)).statusCode).toBe(200);
    expect((await call(viewer, 'GET', `/qc/batches/${id}/results`, team)).statusCode).toBe(200);
    // The member's personal workspace does not list it, nor does another workspace's.
    expect((await call(member, 'GET', '/qc/batches')).json()).toEqual([]);
    for (const suffix of ['', '/results']) {
      const personal = await call(member, 'GET', `/qc/batches/${id}${suffix}`);
      expect(personal.statusCode).toBe(404);
      expect(personal.json()).toEqual({ detail: 'Batch check not found' });
      const stranger = await call(outsider, 'GET', `/qc/batches/${id}${suffix}`, otherTeam);
      expect(stranger.statusCode).toBe(404);
    }
    expect((await call(outsider, 'POST', `/qc/batches/${id}/cancel`, otherTeam)).statusCode).toBe(404);
    // Naming the team without being in it: the workspace itself is not found.
    const named = await call(outsider, 'GET', `/qc/batches/${id}`, team);
    expect(named.statusCode).toBe(404);
    expect(named.json()).toEqual({ detail: 'Workspace not found' });
    // A viewer may read it but not stop it; the batch start is on the audit log.
    expect((await call(viewer, 'POST', `/qc/batches/${id}/cancel`, team)).statusCode).toBe(403);
    const started_ = (await wholeLog(team, '&kind=qc_run')).find((e) => e.action === 'qc.batch_start');
    expect(started_).toMatchObject({ actor: { id: member.id }, detail: { batch_id: id, images: 1 } });
  });
});

describe('the people the Who filter offers', () => {
  it('are everyone the log names, a removed member included, whose events stay filterable', async () => {
    const removed = await call(admin, 'DELETE', `/workspaces/${team}/members/${viewer.id}`);
    expect(removed.statusCode).toBe(204);
    const actors = (await call(admin, 'GET', `/workspaces/${team}/audit/actors`)).json() as { id: string }[];
    expect(actors.map((a) => a.id).sort()).toEqual([admin.id, member.id, reviewer.id, viewer.id].sort());
    expect(actors[0]).toEqual({ id: expect.any(String), name: expect.any(String), email: expect.any(String) });
    expect((await wholeLog(team, `&actor=${viewer.id}`)).map((e) => e.action)).toEqual(['upload.download']);
    const theirs = (await call(outsider, 'GET', `/workspaces/${otherTeam}/audit/actors`)).json() as { id: string }[];
    expect(theirs.map((a) => a.id)).toEqual([outsider.id]);
  });
});

describe('retention', () => {
  it('removes events older than one year and keeps the rest', async () => {
    const { pruneAuditEvents, AUDIT_RETENTION_DAYS } = await import('../../server/modules/audit/audit-retention.ts');
    const audit = createAuditRepository({ db: t.app.db });
    const now = t.clock.now();
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
    await audit.record({ userId: admin.id, workspaceId: team, action: 'upload.download', ip: null, at: daysAgo(366) });
    await audit.record({ userId: admin.id, workspaceId: team, action: 'upload.download', ip: null, at: daysAgo(364) });
    const before = (await wholeLog(team)).length;
    expect(await pruneAuditEvents(t.app.db, daysAgo(AUDIT_RETENTION_DAYS))).toBeGreaterThanOrEqual(1);
    const after = await wholeLog(team);
    expect(after.every((e) => new Date(e.at) >= daysAgo(AUDIT_RETENTION_DAYS))).toBe(true);
    expect(after.some((e) => e.at === daysAgo(364).toISOString())).toBe(true);
    // The 2020 events of the date-range test went too.
    expect(after.length).toBeLessThan(before - 1);
  });
});
