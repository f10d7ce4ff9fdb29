import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { qcResults } from '../../server/modules/qc/qc.table.ts';
import { uploads } from '../../server/modules/uploads/uploads.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createTeamWorkspace } from './helpers/team-workspace.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes } from './uploads-fixtures.ts';

let t: TestApp;
let png: Buffer;
let admin: TestUser;
let member: TestUser;
let reviewer: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let workspaceId: string;
let otherWorkspaceId: string;

/** One request acting in `workspace` (the team workspace unless told), as `user`. */
function call(user: TestUser, method: string, url: string, payload?: unknown, workspace = workspaceId) {
  return t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { ...user.auth, [WORKSPACE_HEADER]: workspace },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });
}

async function upload(user: TestUser, name: string, workspace = workspaceId): Promise<string> {
  const body = multipartBody([{ field: 'file', filename: name, content: png }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...user.auth, [WORKSPACE_HEADER]: workspace, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().stored_filename;
}

const rate = (user: TestUser, image: string, rating: string, extra: object = {}) =>
  call(user, 'PUT', `/uploads/${image}/review/rating`, { rating, ...extra });
const review = (user: TestUser, image: string) => call(user, 'GET', `/uploads/${image}/review`);
const settings = (user: TestUser, body: object) => call(user, 'PATCH', '/reviews/settings', body);

beforeAll(async () => {
  t = await createTestApp();
  png = await pngBytes();
  const created = await createTeamWorkspace(t);
  workspaceId = created.id;
  ({ admin, member, reviewer, viewer, outsider } = created.people);
  const other = await t.app.inject({
    method: 'POST',
    url: '/api/v1/workspaces',
    headers: outsider.auth,
    payload: { name: 'Elsewhere' },
  });
  otherWorkspaceId = other.json().id;
});
afterAll(() => t.close());

describe('who may rate', () => {
  let image: string;
  beforeAll(async () => {
    image = await upload(admin, 'roles.png');
  });

  it('lets admins, members and reviewers rate, with tags from the default list and a note', async () => {
    for (const [user, rating] of [
      [admin, 'usable'],
      [member, 'usable'],
      [reviewer, 'usable'],
    ] as const) {
      const res = await rate(user, image, rating, { tags: ['motion', 'noise'], note: 'slight motion' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().my_rating).toMatchObject({ rating, tags: ['motion', 'noise'], note: 'slight motion' });
    }
    const seen = (await review(viewer, image)).json();
    expect(seen.ratings.map((r: { rater_name: string }) => r.rater_name)).toEqual([
      'Ada Admin',
      'Max Member',
      'Rita Reviewer',
    ]);
    expect(seen.status).toBe('rated');
    expect(seen.latest).toEqual({ rating: 'usable', tier: 1 });
    expect(seen.can_rate).toBe(false);
  });

  it('refuses a viewer 403 and lets them read', async () => {
    const res = await rate(viewer, image, 'usable');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Your role in this workspace does not allow this' });
    expect((await review(viewer, image)).statusCode).toBe(200);
    expect((await call(viewer, 'GET', '/reviews/queue?filter=all')).statusCode).toBe(200);
  });

  it('answers 404 to someone outside the workspace, on every review route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/uploads/${image}/review`],
      ['PUT', `/uploads/${image}/review/rating`, { rating: 'usable' }],
      ['DELETE', `/uploads/${image}/review/rating`],
      ['POST', `/uploads/${image}/review/decision`, { rating: 'usable' }],
      ['PUT', `/uploads/${image}/review/assignees`, { user_ids: [] }],
      ['GET', '/reviews/settings'],
      ['PATCH', '/reviews/settings', { blind: true }],
      ['GET', '/reviews/queue'],
      ['GET', '/reviews/latest'],
      ['GET', '/reviews/agreement'],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(outsider, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Workspace not found' });
    }
  });

  it("answers 404 for another workspace's image, even to a member of both", async () => {
    const theirs = await upload(outsider, 'theirs.png', otherWorkspaceId);
    // The outsider is no member of Neuro QC: asking there about their own image finds nothing.
    expect((await rate(admin, theirs, 'usable')).statusCode).toBe(404);
    expect((await review(admin, theirs)).json()).toEqual({ detail: 'Image not found' });
    // And from their own workspace, Neuro QC's image is not there either.
    const res = await call(outsider, 'GET', `/uploads/${image}/review`, undefined, otherWorkspaceId);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Image not found' });
  });

  it('refuses a tag outside the workspace list, a bad rating and an over-long note with 400', async () => {
    const tag = await rate(member, image, 'usable', { tags: ['cosmic rays'] });
    expect(tag.statusCode).toBe(400);
    expect(tag.json()).toEqual({ detail: 'Unknown artefact tag: cosmic rays' });
    expect((await rate(member, image, 'great')).statusCode).toBe(400);
    expect((await rate(member, image, 'usable', { note: 'x'.repeat(2001) })).statusCode).toBe(400);
  });

  it('lets only an admin change the settings, and uses the tags the admin chose', async () => {
    expect((await settings(member, { blind: true })).statusCode).toBe(403);
    const res = await settings(admin, { artefact_tags: ['motion', 'cosmic rays'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().artefact_tags).toEqual(['motion', 'cosmic rays']);
    expect((await rate(member, image, 'usable', { tags: ['cosmic rays'] })).statusCode).toBe(200);
    expect((await rate(member, image, 'usable', { tags: ['noise'] })).statusCode).toBe(400);
    await settings(admin, { artefact_tags: ['motion', 'ghosting', 'noise', 'other'] });
  });
});

describe('two tiers', () => {
  it('sends a questionable rating and a disagreement to tier 2, and keeps agreement at tier 1', async () => {
    const questionable = await upload(admin, 'q.png');
    const disputed = await upload(admin, 'd.png');
    const agreed = await upload(admin, 'a.png');
    await rate(member, questionable, 'questionable');
    expect((await review(admin, questionable)).json()).toMatchObject({ status: 'tier2', escalation: 'questionable' });
    await rate(member, disputed, 'usable');
    await rate(reviewer, disputed, 'unusable');
    expect((await review(admin, disputed)).json()).toMatchObject({
      status: 'tier2',
      escalation: 'disagreement',
      latest: null,
    });
    await rate(member, agreed, 'unusable');
    await rate(reviewer, agreed, 'unusable');
    expect((await review(admin, agreed)).json()).toMatchObject({
      status: 'rated',
      latest: { rating: 'unusable', tier: 1 },
    });
  });

  it('lets only a tier-2 reviewer decide, once, and records who and when', async () => {
    const image = await upload(admin, 'tier2.png');
    await rate(member, image, 'usable');
    await rate(reviewer, image, 'questionable');
    // Nobody is tier 2 yet: not even the admin decides.
    const early = await call(admin, 'POST', `/uploads/${image}/review/decision`, { rating: 'usable' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ detail: 'Only a tier-2 reviewer of this workspace decides' });
    // A viewer cannot be made tier 2, nor someone outside the workspace.
    expect((await settings(admin, { tier2_user_ids: [viewer.id] })).statusCode).toBe(400);
    expect((await settings(admin, { tier2_user_ids: [outsider.id] })).statusCode).toBe(400);
    expect((await settings(admin, { tier2_user_ids: ['not-a-uuid'] })).statusCode).toBe(400);
    const granted = await settings(admin, { tier2_user_ids: [reviewer.id] });
    expect(granted.json().tier2_user_ids).toEqual([reviewer.id]);
    expect((await review(reviewer, image)).json().can_decide).toBe(true);
    expect((await review(member, image)).json().can_decide).toBe(false);

    t.clock.advance(60_000);
    const decidedAt = t.clock.now();
    const res = await call(reviewer, 'POST', `/uploads/${image}/review/decision`, {
      rating: 'unusable',
      tags: ['ghosting'],
      note: 'ghost across the frontal lobe',
    });
    expect(res.statusCode, res.body).toBe(200);
    const decided = res.json();
    expect(decided.status).toBe('decided');
    expect(decided.latest).toEqual({ rating: 'unusable', tier: 2 });
    expect(decided.decision).toMatchObject({
      rating: 'unusable',
      tags: ['ghosting'],
      note: 'ghost across the frontal lobe',
      decided_by: reviewer.id,
      decided_by_name: 'Rita Reviewer',
    });
    expect(Math.abs(Date.parse(decided.decision.decided_at) - decidedAt.getTime())).toBeLessThan(5_000);

    // Final: no second decision, and tier-1 ratings no longer change.
    const again = await call(reviewer, 'POST', `/uploads/${image}/review/decision`, { rating: 'usable' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'This image already has a final decision' });
    expect((await rate(member, image, 'unusable')).statusCode).toBe(409);
    expect((await call(member, 'DELETE', `/uploads/${image}/review/rating`)).statusCode).toBe(409);

    // The workspace's audit log lists the ratings and the decision under "Ratings".
    const log = await call(admin, 'GET', `/workspaces/${workspaceId}/audit?kind=rating&limit=200`);
    const mine = log
      .json()
      .items.filter((e: { detail: { stored_filename?: string } }) => e.detail?.stored_filename === image)
      .map((e: { action: string }) => e.action);
    expect(mine.sort()).toEqual(['review.decide', 'review.rate', 'review.rate']);
  });

  it('refuses a decision on an image that nothing sent to tier 2 (409)', async () => {
    const image = await upload(admin, 'calm.png');
    await rate(member, image, 'usable');
    const res = await call(reviewer, 'POST', `/uploads/${image}/review/decision`, { rating: 'unusable' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'This image has not been sent to tier 2' });
  });

  it('ends the tier-2 grant when the member leaves the workspace', async () => {
    const temp = await createSignedInUser(t, { name: 'Temp' });
    await t.app.workspaces.addMember(workspaceId, temp.id, 'member', t.clock.now());
    await settings(admin, { tier2_user_ids: [reviewer.id, temp.id] });
    expect((await call(temp, 'DELETE', `/workspaces/${workspaceId}/members/${temp.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', '/reviews/settings')).json().tier2_user_ids).toEqual([reviewer.id]);
  });
});

describe('blind double reads', () => {
  it("hides the other rater's rating until the caller has rated, on every route", async () => {
    await settings(admin, { blind: true });
    const image = await upload(admin, 'blind.png');
    await rate(member, image, 'unusable', { tags: ['motion'] });

    const before = (await review(reviewer, image)).json();
    expect(before).toMatchObject({ status: 'hidden', latest: null, escalation: null, ratings: [], hidden_ratings: 1 });
    const queued = (await call(reviewer, 'GET', '/reviews/queue?filter=all')).json();
    expect(queued.items.find((i: { stored_filename: string }) => i.stored_filename === image)).toMatchObject({
      status: 'hidden',
      latest: null,
    });
    const latest = (await call(reviewer, 'GET', '/reviews/latest')).json();
    expect(latest.some((l: { stored_filename: string }) => l.stored_filename === image)).toBe(false);
    // A viewer rates nothing, so blind reads do not apply to them.
    expect((await review(viewer, image)).json().ratings).toHaveLength(1);

    const after = (await rate(reviewer, image, 'usable')).json();
    expect(after.hidden_ratings).toBe(0);
    expect(after.ratings.map((r: { rating: string }) => r.rating)).toEqual(['unusable', 'usable']);
    expect(after).toMatchObject({ status: 'tier2', escalation: 'disagreement' });
    // The first rater sees the second's now that both have rated.
    expect((await review(member, image)).json().ratings).toHaveLength(2);
  });

  it('leaves out of the agreement figures the images whose ratings the caller may not see yet', async () => {
    const fresh = await call(admin, 'POST', '/workspaces', { name: 'Blind figures' });
    const ws = fresh.json().id;
    await t.app.workspaces.addMember(ws, member.id, 'member', t.clock.now());
    await t.app.workspaces.addMember(ws, reviewer.id, 'reviewer', t.clock.now());
    await call(admin, 'PATCH', '/reviews/settings', { blind: true }, ws);
    const image = await upload(admin, 'figures.png', ws);
    await call(member, 'PUT', `/uploads/${image}/review/rating`, { rating: 'usable' }, ws);
    await call(reviewer, 'PUT', `/uploads/${image}/review/rating`, { rating: 'unusable' }, ws);
    // The admin has not rated it: the member–reviewer pair counts no image for them.
    const before = (await call(admin, 'GET', '/reviews/agreement', undefined, ws)).json();
    expect(before.pairs).toEqual([]);
    expect(before.workspace.units).toBe(0);
    // The member has: the same pair shows its one image, rated differently.
    const after = (await call(member, 'GET', '/reviews/agreement', undefined, ws)).json();
    expect(after.pairs).toHaveLength(1);
    expect(after.pairs[0]).toMatchObject({ n: 1, observed: 0 });
  });

  it('shows a tier-2 reviewer the ratings of an image waiting for them', async () => {
    const image = await upload(admin, 'blind-tier2.png');
    await rate(member, image, 'questionable');
    expect((await review(admin, image)).json().status).toBe('hidden');
    const tier2 = (await review(reviewer, image)).json();
    expect(tier2).toMatchObject({ status: 'tier2', hidden_ratings: 0, can_decide: true });
    await settings(admin, { blind: false });
    expect((await review(admin, image)).json().status).toBe('tier2');
  });
});

describe('the queue and the agreement figures', () => {
  let team: string;
  let people: TestUser[];
  const images: string[] = [];

  beforeAll(async () => {
    // A fresh workspace so the figures below are exactly those of this table.
    const created = await call(admin, 'POST', '/workspaces', { name: 'Agreement' });
    team = created.json().id;
    const second = await createSignedInUser(t, { name: 'Second' });
    await t.app.workspaces.addMember(team, second.id, 'reviewer', t.clock.now());
    people = [admin, second];
    for (let i = 0; i < 4; i += 1) images.push(await upload(admin, `k${i}.png`, team));
  });

  it("computes Cohen's kappa, Krippendorff's alpha and the engine's agreement from the stored ratings", async () => {
    // admin:  U U X X        second: U U X U
    // p_o = 3/4; marginals admin U2 X2, second U3 X1: p_e = (2·3 + 2·1)/16 = 0.5; κ = 0.25/0.5 = 0.5.
    // Alpha over 4 units of 2 values: o_UU = 4, o_XX = 2, o_UX = o_XU = 1; n_U = 5, n_X = 3, n = 8;
    //   α = 1 − 7·2 / (64 − 25 − 9) = 1 − 14/30 = 0.5333…
    const a = ['usable', 'usable', 'unusable', 'unusable'];
    const b = ['usable', 'usable', 'unusable', 'usable'];
    for (let i = 0; i < 4; i += 1) {
      await call(people[0]!, 'PUT', `/uploads/${images[i]}/review/rating`, { rating: a[i] }, team);
      await call(people[1]!, 'PUT', `/uploads/${images[i]}/review/rating`, { rating: b[i] }, team);
    }
    // Engine: pass, pass, fail on images 0–2; image 3 is in disagreement, so it has no human decision.
    // Engine vs human on 0–2: usable/usable, usable/usable, unusable/unusable: p_o = 1, p_e = (2·2+1·1)/9 = 5/9, κ = 1.
    const rows = await t.app.db.select().from(uploads).where(eq(uploads.workspaceId, team));
    const idOf = new Map(rows.map((r) => [r.storedFilename, r.id]));
    for (const [i, verdict] of [
      [0, 'pass'],
      [1, 'pass'],
      [2, 'fail'],
    ] as const) {
      await t.app.db.insert(qcResults).values({
        uploadId: idOf.get(images[i]!)!,
        ownerId: admin.id,
        model: 'builtin',
        promptVersion: '1',
        verdict,
        confidence: 80,
        text: 'ok',
      });
    }
    const res = await call(admin, 'GET', '/reviews/agreement', undefined, team);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.pairs).toHaveLength(1);
    expect(report.pairs[0].n).toBe(4);
    expect(report.pairs[0].observed).toBeCloseTo(0.75, 12);
    expect(report.pairs[0].kappa).toBeCloseTo(0.5, 12);
    expect(report.workspace).toEqual({ units: 4, values: 8, alpha: expect.any(Number) });
    expect(report.workspace.alpha).toBeCloseTo(1 - 14 / 30, 12);
    expect(report.engine.n).toBe(3);
    expect(report.engine.kappa).toBeCloseTo(1, 12);
    expect(report.raters.map((r: { name: string; ratings: number }) => [r.name, r.ratings]).sort()).toEqual([
      ['Ada Admin', 4],
      ['Second', 4],
    ]);
  });

  it('filters the queue: unrated by me, flagged by the engine, in disagreement, assigned to me', async () => {
    const extra = await upload(admin, 'k-extra.png', team);
    const queue = async (user: TestUser, filter: string) =>
      (await call(user, 'GET', `/reviews/queue?filter=${filter}`, undefined, team))
        .json()
        .items.map((i: { stored_filename: string }) => i.stored_filename);
    expect(await queue(admin, 'unrated')).toEqual([extra]);
    expect(await queue(admin, 'flagged')).toEqual([images[2]]);
    expect(await queue(admin, 'disagreement')).toEqual([images[3]]);
    expect(await queue(admin, 'tier2')).toEqual([images[3]]);
    expect(await queue(people[1]!, 'assigned')).toEqual([]);
    const assigned = await call(
      admin,
      'PUT',
      `/uploads/${extra}/review/assignees`,
      { user_ids: [people[1]!.id] },
      team,
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await queue(people[1]!, 'assigned')).toEqual([extra]);
    // Only admins assign, and only to members who may rate.
    expect(
      (await call(people[1]!, 'PUT', `/uploads/${extra}/review/assignees`, { user_ids: [] }, team)).statusCode,
    ).toBe(403);
    expect(
      (await call(admin, 'PUT', `/uploads/${extra}/review/assignees`, { user_ids: [outsider.id] }, team)).statusCode,
    ).toBe(400);
  });

  it('pages the queue with `after` and counts the total', async () => {
    const first = (await call(admin, 'GET', '/reviews/queue?filter=all&limit=2', undefined, team)).json();
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(5);
    const second = (
      await call(admin, 'GET', `/reviews/queue?filter=all&limit=2&after=${first.next}`, undefined, team)
    ).json();
    expect(second.items.map((i: { stored_filename: string }) => i.stored_filename)).toEqual([images[2], images[3]]);
    expect((await call(admin, 'GET', '/reviews/queue?filter=nonsense', undefined, team)).statusCode).toBe(400);
  });

  it('starts the next page after the anchor even when the anchor has left the filter (rated meanwhile)', async () => {
    const fresh = await call(admin, 'POST', '/workspaces', { name: 'Paging' });
    const ws = fresh.json().id;
    const names: string[] = [];
    for (let i = 0; i < 5; i += 1) names.push(await upload(admin, `p${i}.png`, ws));
    const page = async (after?: string) =>
      (
        await call(
          admin,
          'GET',
          `/reviews/queue?filter=unrated&limit=2${after ? `&after=${after}` : ''}`,
          undefined,
          ws,
        )
      ).json();
    const first = await page();
    expect(first.items.map((i: { stored_filename: string }) => i.stored_filename)).toEqual(names.slice(0, 2));
    expect(first.next).toBe(names[1]);
    // The rater rates both, so neither is "not rated by me" any more; the next page still follows them.
    for (const name of names.slice(0, 2))
      await call(admin, 'PUT', `/uploads/${name}/review/rating`, { rating: 'usable' }, ws);
    const second = await page(first.next);
    expect(second.items.map((i: { stored_filename: string }) => i.stored_filename)).toEqual(names.slice(2, 4));
    expect(second.total).toBe(3);
    const third = await page(second.next);
    expect(third.items.map((i: { stored_filename: string }) => i.stored_filename)).toEqual([names[4]]);
    expect(third.next).toBeNull();
  });
});
