import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { pngBytes, uploadFile } from './uploads-fixtures.ts';

describe('share links (Copy URL)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let png: Buffer;
  let first: string;
  let second: string;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_SITE_URL: 'https://qc.example.org' });
    alice = await createSignedInUser(t);
    bob = await createSignedInUser(t);
    png = await pngBytes();
    first = (await uploadFile(t, alice, 'first.png', png)).json().stored_filename;
    second = (await uploadFile(t, alice, 'second.png', Buffer.concat([png, Buffer.alloc(4)]))).json().stored_filename;
  });
  afterAll(async () => t.close());

  const share = (user: TestUser, name: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/uploads/${name}/share-links`, headers: user.auth });
  const pathOf = (url: string) => new URL(url).pathname;

  it('makes a link that opens that one file without a token, valid for 24 hours', async () => {
    const res = await share(alice, first);
    expect(res.statusCode).toBe(201);
    const { url, expires_at } = res.json();
    expect(url).toMatch(/^https:\/\/qc\.example\.org\/api\/v1\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    const download = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never opens any other file: the link names no file, only its own secret', async () => {
    const { url } = (await share(alice, first)).json();
    const bytes = (await t.app.inject({ method: 'GET', url: pathOf(url) })).rawPayload;
    expect(bytes.length).toBe(png.length);
    // The secret is not a bearer token: it opens nothing under /uploads.
    const token = pathOf(url).split('/').pop()!;
    const asBearer = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${second}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asBearer.statusCode).toBe(401);
    const tampered = `${pathOf(url).slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);
  });

  it("refuses to share another user's file, or an unknown one, with 404", async () => {
    expect((await share(bob, first)).statusCode).toBe(404);
    expect((await share(alice, '00000000-0000-0000-0000-000000000000.png')).statusCode).toBe(404);
  });

  it('stops working once the file is deleted', async () => {
    const { url } = (await share(alice, second)).json();
    await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${second}`, headers: alice.auth });
    expect((await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(404);
  });

  it('records each link made in the audit log', async () => {
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'share_link.create'));
    expect(events.length).toBe(3);
    expect(events.every((e) => e.userId === alice.id)).toBe(true);
    expect(JSON.stringify(events)).not.toMatch(/shared\//);
  });

  it('stops working after 24 hours', async () => {
    const { url } = (await share(alice, first)).json();
    t.clock.advance(24 * 3600_000 - 5_000);
    expect((await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200);
    t.clock.advance(10_000);
    const late = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(late.statusCode).toBe(404);
    expect(late.json()).toEqual({ detail: 'This link is invalid or has expired' });
  });
});

describe('listing and revoking share links', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_SITE_URL: 'https://qc.example.org' });
    alice = await createSignedInUser(t);
    bob = await createSignedInUser(t);
    png = await pngBytes();
  });
  afterAll(async () => t.close());
  const share = (user: TestUser, name: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/uploads/${name}/share-links`, headers: user.auth });
  const pathOf = (url: string) => new URL(url).pathname;

  it("lists an upload's live links without their secrets, and revokes one so it stops working at once", async () => {
    const third = (await uploadFile(t, alice, 'third.png', png)).json().stored_filename as string;
    const made = [(await share(alice, third)).json().url, (await share(alice, third)).json().url] as string[];
    const listed = await t.app.inject({ url: `/api/v1/uploads/${third}/share-links`, headers: alice.auth });
    expect(listed.statusCode).toBe(200);
    const links = listed.json() as { id: string; created_at: string; expires_at: string }[];
    expect(links.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(links[0]!).sort()).toEqual(['created_at', 'expires_at', 'id']);
    for (const url of made) expect(listed.body).not.toContain(url.split('/').at(-1));
    // Bob can neither see nor revoke Alice's links.
    expect((await t.app.inject({ url: `/api/v1/uploads/${third}/share-links`, headers: bob.auth })).statusCode).toBe(
      404,
    );
    const revokeUrl = `/api/v1/uploads/${third}/share-links/${links[0]!.id}`;
    expect((await t.app.inject({ method: 'DELETE', url: revokeUrl, headers: bob.auth })).statusCode).toBe(404);
    const before = await Promise.all(made.map((url) => t.app.inject({ url: pathOf(url) })));
    expect(before.map((r) => r.statusCode)).toEqual([200, 200]);
    for (const link of links) {
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/v1/uploads/${third}/share-links/${link.id}`,
            headers: alice.auth,
          })
        ).statusCode,
      ).toBe(204);
    }
    const after = await Promise.all(made.map((url) => t.app.inject({ url: pathOf(url) })));
    expect(after.map((r) => r.statusCode)).toEqual([404, 404]);
    expect((await t.app.inject({ method: 'DELETE', url: revokeUrl, headers: alice.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/uploads/${third}/share-links`, headers: alice.auth })).json()).toEqual(
      [],
    );
  });
});
