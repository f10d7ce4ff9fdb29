import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createTeamWorkspace, TEAM_ROLES, type TeamPerson } from './helpers/team-workspace.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes } from './uploads-fixtures.ts';

const ROLES = TEAM_ROLES;
type Role = (typeof ROLES)[number];
type Who = TeamPerson;

let t: TestApp;
let png: Buffer;
let owner: TestUser;
let outsider: TestUser;
let people: Record<Role, TestUser>;
let workspaceId: string;
let image: string;

/** One request in the team workspace, as `user`. */
function call(user: TestUser, method: string, url: string, extra: { payload?: unknown; headers?: object } = {}) {
  return t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { ...user.auth, [WORKSPACE_HEADER]: workspaceId, ...(extra.headers ?? {}) },
    ...(extra.payload !== undefined ? { payload: extra.payload as string } : {}),
  });
}

function upload(user: TestUser, name = 'scan.png') {
  const body = multipartBody([{ field: 'file', filename: name, content: png }]);
  return call(user, 'POST', '/uploads', { headers: body.headers, payload: body.payload });
}

beforeAll(async () => {
  t = await createTestApp();
  png = await pngBytes(32);
  const created = await createTeamWorkspace(t);
  workspaceId = created.id;
  ({ outsider, ...people } = created.people);
  owner = people.admin;
  const uploaded = await upload(owner);
  expect(uploaded.statusCode).toBe(201);
  image = uploaded.json().stored_filename;
});
afterAll(() => t.close());

const READ = { admin: 'ok', member: 'ok', reviewer: 'ok', viewer: 'ok', outsider: 404 } as const;
const WRITE = { admin: 'ok', member: 'ok', reviewer: 403, viewer: 403, outsider: 404 } as const;
const MANAGE = { admin: 'ok', member: 403, reviewer: 403, viewer: 403, outsider: 404 } as const;
const COMMENT = { admin: 'ok', member: 'ok', reviewer: 'ok', viewer: 403, outsider: 404 } as const;

/** A comment on the image by `user` when their role may write one, else by the owner; its path. */
async function commentPath(user: TestUser): Promise<string> {
  const mine = await call(user, 'POST', `/uploads/${image}/comments`, { payload: { text: 'Noted.' } });
  const made =
    mine.statusCode === 201
      ? mine
      : await call(owner, 'POST', `/uploads/${image}/comments`, { payload: { text: 'Noted.' } });
  return `/uploads/${image}/comments/${made.json().id}`;
}

/** Each route of a workspace, how to call it, and what each role gets: 'ok' (2xx) or a refusal status. */
const routes: {
  name: string;
  expect: Record<Who, 'ok' | number>;
  send: (user: TestUser) => ReturnType<typeof call>;
}[] = [
  { name: 'GET /uploads', expect: READ, send: (u) => call(u, 'GET', '/uploads') },
  { name: 'GET /uploads/{name}', expect: READ, send: (u) => call(u, 'GET', `/uploads/${image}`) },
  { name: 'GET …/preview.png', expect: READ, send: (u) => call(u, 'GET', `/uploads/${image}/preview.png`) },
  { name: 'GET …/metadata', expect: READ, send: (u) => call(u, 'GET', `/uploads/${image}/metadata`) },
  { name: 'GET …/qc-results', expect: READ, send: (u) => call(u, 'GET', `/uploads/${image}/qc-results`) },
  { name: 'GET /dashboard/metrics', expect: READ, send: (u) => call(u, 'GET', '/dashboard/metrics') },
  { name: 'GET /dashboard/activity', expect: READ, send: (u) => call(u, 'GET', '/dashboard/activity') },
  {
    name: 'GET /workspaces/{id}/members',
    expect: READ,
    send: (u) => call(u, 'GET', `/workspaces/${workspaceId}/members`),
  },
  {
    name: 'GET …/deidentification',
    // Past the guard, a PNG has no report: 404 with its own detail (checked below), not the workspace's.
    expect: { ...READ, admin: 404, member: 404, reviewer: 404, viewer: 404 },
    send: (u) => call(u, 'GET', `/uploads/${image}/deidentification`),
  },
  { name: 'GET …/share-links', expect: WRITE, send: (u) => call(u, 'GET', `/uploads/${image}/share-links`) },
  {
    name: 'DELETE …/share-links/{id}',
    // Past the guard, an unknown link is 404 'Share link not found'.
    expect: { ...WRITE, admin: 404, member: 404 },
    send: (u) => call(u, 'DELETE', `/uploads/${image}/share-links/00000000-0000-4000-8000-000000000000`),
  },
  { name: 'POST /uploads', expect: WRITE, send: (u) => upload(u) },
  {
    name: 'POST /uploads/series',
    // Past the guard, a request without slices is refused as bad input: the role allowed it.
    expect: { ...WRITE, admin: 400, member: 400 },
    send: (u) => call(u, 'POST', '/uploads/series', { payload: {} }),
  },
  {
    name: 'POST …/share-links',
    expect: WRITE,
    send: (u) => call(u, 'POST', `/uploads/${image}/share-links`),
  },
  {
    name: 'POST /llm/generate-messages',
    expect: WRITE,
    send: (u) =>
      call(u, 'POST', '/llm/generate-messages', {
        payload: {
          model: 'x',
          messages: [
            { role: 'user', content: [{ type: 'image_url', image_url: { url: `/api/v1/uploads/${image}` } }] },
          ],
        },
      }),
  },
  {
    name: 'DELETE /uploads/{name}',
    expect: WRITE,
    // Each caller deletes an image of its own making, or the owner's when it may not upload.
    send: async (u) => {
      const made = await upload(owner, 'to-delete.png');
      return call(u, 'DELETE', `/uploads/${made.json().stored_filename}`);
    },
  },
  { name: 'GET …/comments', expect: READ, send: (u) => call(u, 'GET', `/uploads/${image}/comments`) },
  {
    name: 'POST …/comments',
    expect: COMMENT,
    send: (u) => call(u, 'POST', `/uploads/${image}/comments`, { payload: { text: 'Looks fine.' } }),
  },
  {
    name: 'PATCH …/comments/{id} (one’s own)',
    expect: COMMENT,
    send: async (u) => call(u, 'PATCH', await commentPath(u), { payload: { text: 'Looks fine after all.' } }),
  },
  {
    name: 'DELETE …/comments/{id} (one’s own)',
    expect: COMMENT,
    send: async (u) => call(u, 'DELETE', await commentPath(u)),
  },
  {
    name: 'PATCH /workspaces/{id}',
    expect: MANAGE,
    send: (u) => call(u, 'PATCH', `/workspaces/${workspaceId}`, { payload: { name: 'Neuro QC' } }),
  },
  {
    name: 'PATCH /workspaces/{id}/members/{userId}',
    expect: MANAGE,
    send: (u) =>
      call(u, 'PATCH', `/workspaces/${workspaceId}/members/${people.viewer.id}`, { payload: { role: 'viewer' } }),
  },
  {
    name: 'GET /workspaces/{id}/audit',
    expect: MANAGE,
    send: (u) => call(u, 'GET', `/workspaces/${workspaceId}/audit`),
  },
  {
    name: 'GET /workspaces/{id}/audit.csv',
    expect: MANAGE,
    send: (u) => call(u, 'GET', `/workspaces/${workspaceId}/audit.csv`),
  },
  {
    name: 'GET /workspaces/{id}/audit/actors',
    expect: MANAGE,
    send: (u) => call(u, 'GET', `/workspaces/${workspaceId}/audit/actors`),
  },
  { name: 'GET /qc/batches', expect: READ, send: (u) => call(u, 'GET', '/qc/batches') },
  { name: 'GET …/review', expect: READ, send: (u) => call(u, 'GET', `/uploads/${image}/review`) },
  {
    name: 'PUT …/review/rating',
    expect: COMMENT,
    send: (u) => call(u, 'PUT', `/uploads/${image}/review/rating`, { payload: { rating: 'usable' } }),
  },
  {
    name: 'DELETE …/review/rating (one’s own)',
    expect: COMMENT,
    send: async (u) => {
      await call(u, 'PUT', `/uploads/${image}/review/rating`, { payload: { rating: 'usable' } });
      return call(u, 'DELETE', `/uploads/${image}/review/rating`);
    },
  },
  {
    name: 'POST …/review/decision',
    // Nobody is tier 2 here: viewers are refused by their role, the others as no tier-2 reviewer (reviews.test.ts decides).
    expect: { admin: 403, member: 403, reviewer: 403, viewer: 403, outsider: 404 },
    send: (u) => call(u, 'POST', `/uploads/${image}/review/decision`, { payload: { rating: 'usable' } }),
  },
  {
    name: 'PUT …/review/assignees',
    expect: MANAGE,
    send: (u) => call(u, 'PUT', `/uploads/${image}/review/assignees`, { payload: { user_ids: [] } }),
  },
  { name: 'GET /reviews/settings', expect: READ, send: (u) => call(u, 'GET', '/reviews/settings') },
  {
    name: 'PATCH /reviews/settings',
    expect: MANAGE,
    send: (u) => call(u, 'PATCH', '/reviews/settings', { payload: { blind: false } }),
  },
  { name: 'GET /reviews/queue', expect: READ, send: (u) => call(u, 'GET', '/reviews/queue') },
  { name: 'GET /reviews/latest', expect: READ, send: (u) => call(u, 'GET', '/reviews/latest') },
  { name: 'GET /reviews/agreement', expect: READ, send: (u) => call(u, 'GET', '/reviews/agreement') },
  {
    name: 'DELETE /workspaces/{id}/members/{userId} (someone else)',
    expect: MANAGE,
    send: async (u) => {
      const extra = await createSignedInUser(t);
      await t.app.workspaces.addMember(workspaceId, extra.id, 'viewer', t.clock.now());
      return call(u, 'DELETE', `/workspaces/${workspaceId}/members/${extra.id}`);
    },
  },
];

describe('the role matrix: every role against every route of a workspace', () => {
  for (const route of routes) {
    for (const who of [...ROLES, 'outsider'] as const) {
      const expected = route.expect[who];
      it(`${route.name} as ${who}: ${expected === 'ok' ? 'allowed' : expected}`, async () => {
        const res = await route.send(who === 'outsider' ? outsider : people[who]);
        if (expected === 'ok') expect(res.statusCode, res.body).toBeLessThan(300);
        else {
          expect(res.statusCode, res.body).toBe(expected);
          expect(res.json()).toEqual({ detail: expect.any(String) });
          // A stranger learns nothing: the workspace itself is not found, whatever the route.
          if (who === 'outsider') expect(res.json().detail).toBe('Workspace not found');
          else if (expected === 404) expect(res.json().detail).not.toBe('Workspace not found');
        }
      });
    }
  }
});
