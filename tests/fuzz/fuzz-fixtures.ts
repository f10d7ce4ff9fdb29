import { readFile } from 'node:fs/promises';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { createInvitesRepository } from '../../server/modules/workspaces/invites.repository.ts';
import { createTeamWorkspace, TEAM_ROLES } from '../server/helpers/team-workspace.ts';
import type { TestApp } from '../server/helpers/test-app.ts';
import { pngBytes, uploadFile } from '../server/uploads-fixtures.ts';

/**
 * What the generated requests may name, read when each request is sent: a team workspace with a session per role
 * (admin first, the outsider last), its images, a comment, a share link, an invitation and a batch.
 */
export interface FuzzFixtures {
  workspaceId: string;
  /** Session tokens: admin, member, reviewer, viewer, then an outsider who is not a member. */
  tokens: string[];
  /** Path parameters that name real items, by table (`uploads`, `comments`, `shareLinks`, …), one row per item. */
  rows: Record<string, Record<string, string>[]>;
  /** Real values for body fields, by kind (`email`, `password`, `userId`, `storedName`, `commentId`). */
  values: Record<string, string[]>;
  /** Files an upload route accepts. */
  files: { name: string; bytes: Buffer }[];
  /**
   * Puts back what a request to `path` may have removed or changed (sessions, roles, the images, a comment, a
   * share link, an invitation) and reads the items it may have added; everything when no path is given.
   */
  refresh(path?: string): Promise<void>;
}

const PEOPLE = [...TEAM_ROLES, 'outsider'] as const;
const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const NIBABEL = '/usr/lib/python3/dist-packages/nibabel/tests/data';

/** The fixtures of a fuzz run in `t`, made the way a team makes them (through the API where one exists). */
export async function createFuzzFixtures(t: TestApp): Promise<FuzzFixtures> {
  const team = await createTeamWorkspace(t, { name: 'Fuzz QC' });
  const admin = team.people.admin;
  // Real scans from Debian's pydicom and nibabel test data, so that previews, metadata and checks get past decoding.
  const files = [
    { name: 'a.png', bytes: await pngBytes() },
    { name: 'standard.nii.gz', bytes: await readFile(`${NIBABEL}/standard.nii.gz`) },
    { name: 'MR_small.dcm', bytes: await readFile(`${PYDICOM}/MR_small.dcm`) },
  ];
  const invites = createInvitesRepository({ db: t.app.db });
  /** The images the fixtures keep, one per file above; a deleted one is uploaded again. */
  const kept: string[] = files.map(() => '');
  const shareTokens = new Map<string, string>();
  const inviteTokens = new Map<string, string>();

  const fixtures: FuzzFixtures = {
    workspaceId: team.id,
    tokens: PEOPLE.map((who) => team.people[who].token),
    rows: {},
    values: {
      email: PEOPLE.map((who) => team.people[who].email),
      password: [admin.password],
      userId: PEOPLE.map((who) => team.people[who].id),
    },
    files,
    refresh,
  };

  const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${fixtures.tokens[0]}`, [WORKSPACE_HEADER]: team.id },
      ...(payload && { payload }),
    });

  async function sessions(): Promise<void> {
    const now = t.clock.now();
    for (const [i, who] of PEOPLE.entries()) {
      if (!(await t.app.sessions.resolve(fixtures.tokens[i]!, now))) {
        fixtures.tokens[i] = await t.app.sessions.create(team.people[who].id, now);
      }
    }
  }

  async function roles(): Promise<void> {
    const now = t.clock.now();
    // A request may have changed a role or removed a member; the admin is put back first, so it stays an admin.
    const members = await t.app.workspaces.members(team.id);
    for (const role of TEAM_ROLES) {
      const user = team.people[role];
      const member = members.find((m) => m.user_id === user.id);
      if (!member) await t.app.workspaces.addMember(team.id, user.id, role, now);
      else if (member.role !== role) await t.app.workspaces.updateMember(team.id, user.id, { role });
    }
  }

  async function images(): Promise<void> {
    const listed = (await asAdmin('GET', '/uploads')).json<{ stored_filename: string }[]>();
    const names = new Set(listed.map((item) => item.stored_filename));
    for (const [i, file] of files.entries()) {
      if (names.has(kept[i]!)) continue;
      const signedIn = { ...admin, auth: { authorization: `Bearer ${fixtures.tokens[0]}` } };
      const res = await uploadFile(t, signedIn, file.name, file.bytes, team.id);
      if (res.statusCode !== 201) throw new Error(`fixture upload ${file.name}: ${res.statusCode} ${res.body}`);
      kept[i] = res.json<{ stored_filename: string }>().stored_filename;
    }
    // The kept images first, then a few the run uploaded itself.
    const others = [...names].filter((name) => !kept.includes(name)).slice(0, 5);
    const storedNames = [...kept, ...others];
    fixtures.rows.uploads = storedNames.map((stored_filename) => ({ stored_filename }));
    fixtures.values.storedName = storedNames;
  }

  async function comments(): Promise<void> {
    const image = kept[0]!;
    type Thread = { id: string; deleted: boolean; replies: { id: string; deleted: boolean }[] };
    let alive = (await asAdmin('GET', `/uploads/${image}/comments`))
      .json<Thread[]>()
      .flatMap((thread) => [thread, ...thread.replies])
      .filter((comment) => !comment.deleted);
    if (alive.length === 0) {
      const made = await asAdmin('POST', `/uploads/${image}/comments`, { text: 'Motion at the top slices?' });
      alive = [made.json<Thread>()];
    }
    fixtures.rows.comments = alive.map((c) => ({ stored_filename: image, commentId: c.id }));
    fixtures.values.commentId = alive.map((c) => c.id);
  }

  async function shareLinks(): Promise<void> {
    const image = kept[0]!;
    type Link = { id: string };
    let links = (await asAdmin('GET', `/uploads/${image}/share-links`)).json<Link[]>();
    if (!links.some((link) => shareTokens.has(link.id))) {
      const made = await asAdmin('POST', `/uploads/${image}/share-links`);
      const token = made.json<{ url: string }>().url.split('/').pop()!;
      links = (await asAdmin('GET', `/uploads/${image}/share-links`)).json<Link[]>();
      const fresh = links.find((link) => !shareTokens.has(link.id))!;
      shareTokens.set(fresh.id, token);
    }
    fixtures.rows.shareLinks = links.map((link) => ({
      stored_filename: image,
      id: link.id,
      token: shareTokens.get(link.id) ?? '',
    }));
  }

  async function invitations(): Promise<void> {
    const now = t.clock.now();
    let pending = await invites.pending(team.id, now);
    if (!pending.some((invite) => inviteTokens.has(invite.id))) {
      const { invite, token } = await invites.create(
        { workspaceId: team.id, email: 'invitee@example.org', role: 'member', invitedBy: admin.id },
        now,
      );
      inviteTokens.set(invite.id, token);
      pending = await invites.pending(team.id, now);
    }
    fixtures.rows.invites = pending.map((invite) => ({
      workspaceId: team.id,
      inviteId: invite.id,
      token: inviteTokens.get(invite.id) ?? '',
    }));
  }

  async function batches(): Promise<void> {
    const listed = (await asAdmin('GET', '/qc/batches')).json<{ id: string }[]>();
    fixtures.rows.batches = listed.map((batch) => ({ id: batch.id }));
  }

  // What each part keeps, and the paths whose requests may change it. A new image's comments and share links go
  // with it, so deleting an image refreshes those too.
  const parts: [RegExp, () => Promise<void>][] = [
    [/\/auth\/|\/account\//, sessions],
    [/\/members|\/invites/, roles],
    [/^\/api\/v1\/uploads(\/[^/]+)?$/, images],
    [/^\/api\/v1\/uploads(\/[^/]+)?$|\/comments/, comments],
    [/^\/api\/v1\/uploads(\/[^/]+)?$|\/share-links/, shareLinks],
    [/\/invites/, invitations],
    [/\/qc\/batches/, batches],
  ];

  async function refresh(path?: string): Promise<void> {
    for (const [pattern, part] of parts) if (path === undefined || pattern.test(path)) await part();
  }

  fixtures.rows.members = TEAM_ROLES.map((role) => ({ workspaceId: team.id, userId: team.people[role].id }));
  fixtures.rows.workspaces = [{ workspaceId: team.id }];
  fixtures.rows.users = PEOPLE.map((who) => ({ userId: team.people[who].id }));
  await refresh();
  const batch = await asAdmin('POST', '/qc/batches', { scope: 'library' });
  if (batch.statusCode !== 202) throw new Error(`fixture batch: ${batch.statusCode} ${batch.body}`);
  fixtures.rows.batches = [{ id: batch.json<{ id: string }>().id }];
  return fixtures;
}
