import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { GOOD_PASSWORD, login } from './auth-helpers.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { pngBytes, uploadFile } from './uploads-fixtures.ts';

let received: ReceivedMail[] = [];
let smtp: SmtpSink;
let t: TestApp;
let admin: TestUser;
let team: string;

// A real SMTP server on loopback: the invitation goes out exactly as it would through a mail relay.
beforeAll(async () => {
  smtp = await startSmtpSink();
  received = smtp.received;
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_SITE_URL: 'https://qc.example.org' });
  admin = await createSignedInUser(t, { name: 'Ada Admin' });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/workspaces',
    headers: admin.auth,
    payload: { name: 'Neuro QC' },
  });
  team = created.json().id;
  expect((await uploadFile(t, admin, 'shared.png', await pngBytes())).statusCode).toBe(201);
  // That upload went to the personal workspace; one more goes to the team's library.
  const { multipartBody } = await import('./uploads-fixtures.ts');
  const body = multipartBody([{ field: 'file', filename: 'team-brain.png', content: await pngBytes() }]);
  const inTeam = await t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...admin.auth, ...body.headers, [WORKSPACE_HEADER]: team },
    payload: body.payload,
  });
  expect(inTeam.statusCode).toBe(201);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** The first group of `pattern` in a message received over SMTP by `to` (quoted-printable left as sent). */
async function mailedToken(to: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const mail of received.filter((m) => m.to.includes(to))) {
      const found = mail.raw.replace(/=\r?\n/g, '').match(pattern)?.[1];
      if (found) return found;
    }
    if (Date.now() > deadline) throw new Error(`no matching mail for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The invitation link received over SMTP by `to`. */
async function invitationLink(to: string): Promise<URL> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = received.filter((m) => m.to.includes(to) && m.raw.includes('invited you')).at(-1);
    const text = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = text?.match(/https:\/\/qc\.example\.org\/dashboard\/workspace\?invite=[A-Za-z0-9_%-]+/)?.[0];
    if (link) return new URL(link);
    if (Date.now() > deadline) throw new Error(`no invitation for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const invite = (email: string, role = 'member', who = admin) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${team}/invites`,
    headers: who.auth,
    payload: { email, role },
  });

describe('invitations by e-mail', () => {
  it('lets an unregistered address register, then join with the mailed link and see the shared library', async () => {
    const res = await invite('Newcomer@Example.org', 'reviewer');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: 'newcomer@example.org', role: 'reviewer' });
    const link = await invitationLink('newcomer@example.org');
    const token = link.searchParams.get('invite')!;
    const mail = received.find((m) => m.to.includes('newcomer@example.org'))!.raw;
    expect(mail).toContain('Ada Admin invited you to Neuro QC');
    // The secret is never stored as such.
    const stored = await t.app.db.query.workspaceInvites.findFirst();
    expect(stored?.tokenHash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);

    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Nora Newcomer', email: 'newcomer@example.org', password: GOOD_PASSWORD, organization: null },
    });
    expect(registered.statusCode).toBe(201);
    const verifyToken = await mailedToken('newcomer@example.org', /verify-email\?token=3D([A-Za-z0-9_-]+)/);
    const verified = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify/${verifyToken}` });
    expect(verified.statusCode).toBe(200);
    const session = (await login(t, 'newcomer@example.org', GOOD_PASSWORD)).json().access_token as string;
    const auth = { authorization: `Bearer ${session}` };
    const preview = await t.app.inject({ method: 'GET', url: `/api/v1/invites/${token}`, headers: auth });
    expect(preview.json()).toMatchObject({ workspace_name: 'Neuro QC', role: 'reviewer', invited_by: 'Ada Admin' });
    const accepted = await t.app.inject({ method: 'POST', url: `/api/v1/invites/${token}/accept`, headers: auth });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: team, name: 'Neuro QC', role: 'reviewer', member_count: 2 });
    const library = await t.app.inject({
      method: 'GET',
      url: '/api/v1/uploads',
      headers: { ...auth, [WORKSPACE_HEADER]: team },
    });
    expect(library.json().map((i: { original_name_guess: string }) => i.original_name_guess)).toEqual([
      'team-brain.png',
    ]);
    // Single use: the same link again is refused.
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/invites/${token}/accept`, headers: auth });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'This invitation is invalid or has expired' });
  });

  it('works only for the invited address', async () => {
    await invite('someone@example.org');
    const token = (await invitationLink('someone@example.org')).searchParams.get('invite')!;
    const stranger = await createSignedInUser(t);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/invites/${token}/accept`, headers: stranger.auth });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'This invitation was sent to another e-mail address' });
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${team}/members`,
      headers: admin.auth,
    });
    expect(members.json().map((m: { email: string }) => m.email)).not.toContain(stranger.email);
  });

  it('stops working once withdrawn', async () => {
    const later = await createSignedInUser(t, { email: 'withdrawn@example.org' });
    const withdrawn = await invite('withdrawn@example.org');
    const token = (await invitationLink('withdrawn@example.org')).searchParams.get('invite')!;
    const pending = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${team}/invites`,
      headers: admin.auth,
    });
    expect(pending.json().map((i: { id: string }) => i.id)).toContain(withdrawn.json().id);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${team}/invites/${withdrawn.json().id}`,
      headers: admin.auth,
    });
    expect(removed.statusCode).toBe(204);
    const refused = await t.app.inject({ method: 'POST', url: `/api/v1/invites/${token}/accept`, headers: later.auth });
    expect(refused.statusCode).toBe(404);
  });

  it('is for admins of team workspaces only, and refuses a malformed address or role', async () => {
    const member = await createSignedInUser(t);
    await t.app.workspaces.addMember(team, member.id, 'member', t.clock.now());
    expect((await invite('x@example.org', 'viewer', member)).statusCode).toBe(403);
    const outsider = await createSignedInUser(t);
    expect((await invite('x@example.org', 'viewer', outsider)).statusCode).toBe(404);
    expect((await invite('not an address')).statusCode).toBe(400);
    expect((await invite('x@example.org', 'owner')).statusCode).toBe(400);
    const personal = (await t.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: admin.auth })).json()[0]
      .id;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${personal}/invites`,
      headers: admin.auth,
      payload: { email: 'x@example.org', role: 'viewer' },
    });
    expect(res.statusCode).toBe(409);
    const junk = await t.app.inject({ method: 'GET', url: '/api/v1/invites/short', headers: admin.auth });
    expect(junk.statusCode).toBe(400);
  });

  // Last: it moves the clock past every session of this file.
  it('stops working after seven days', async () => {
    const late = await createSignedInUser(t, { email: 'late@example.org' });
    await invite('late@example.org');
    const token = (await invitationLink('late@example.org')).searchParams.get('invite')!;
    t.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    const session = await t.app.sessions.create(late.id, t.clock.now());
    const expired = await t.app.inject({
      method: 'POST',
      url: `/api/v1/invites/${token}/accept`,
      headers: { authorization: `Bearer ${session}` },
    });
    expect(expired.statusCode).toBe(404);
  });
});
