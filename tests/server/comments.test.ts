import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MAX_LENGTH, COMMENT_NOT_YOURS, type CommentThread } from '../../contract/comments.ts';
import { WORKSPACE_HEADER, WORKSPACE_NOT_FOUND } from '../../contract/workspaces.ts';
import { phantomDicom } from '../fixtures/upload-images.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createTeamWorkspace } from './helpers/team-workspace.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes } from './uploads-fixtures.ts';

let received: ReceivedMail[] = [];
let smtp: SmtpSink;
let t: TestApp;
let team: string;
let image: string;
let otherImage: string;
let admin: TestUser;
let member: TestUser;
let reviewer: TestUser;
let viewer: TestUser;
let outsider: TestUser;

/** One request in the team workspace (or, with `workspace: null`, in the caller's personal one). */
function call(
  user: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  workspace: string | null = team,
) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...user.auth, ...(workspace ? { [WORKSPACE_HEADER]: workspace } : {}) },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });
}

const comments = (who: TestUser, on = image) => call(who, 'GET', `/uploads/${on}/comments`);
const post = (who: TestUser, text: string, parent_id?: string, on = image) =>
  call(who, 'POST', `/uploads/${on}/comments`, { text, ...(parent_id ? { parent_id } : {}) });
const edit = (who: TestUser, id: string, text: string) =>
  call(who, 'PATCH', `/uploads/${image}/comments/${id}`, { text });
const remove = (who: TestUser, id: string) => call(who, 'DELETE', `/uploads/${image}/comments/${id}`);

/** Posts a comment and returns the id of the comment just written. */
async function write(who: TestUser, text: string, parent?: string): Promise<string> {
  const res = await post(who, text, parent);
  expect(res.statusCode).toBe(201);
  const thread = res.json<CommentThread>();
  return parent ? thread.replies.at(-1)!.id : thread.id;
}

async function upload(user: TestUser, name: string, content: Buffer): Promise<string> {
  const body = multipartBody([{ field: 'file', filename: name, content }]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...user.auth, ...body.headers, [WORKSPACE_HEADER]: team },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().stored_filename;
}

/** The mails received over SMTP by `to` (quoted-printable soft breaks removed). */
function mailsTo(to: string): string[] {
  return received.filter((m) => m.to.includes(to)).map((m) => m.raw.replace(/=\r?\n/g, ''));
}

/** The decoded mails received by `to` (quoted-printable undone, so "=" in a link reads as sent). */
function textsTo(to: string): string[] {
  return received.filter((m) => m.to.includes(to)).map((m) => m.text);
}

/** Lets a stray mail arrive before a test checks there is none. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function waitForMail(to: string, count = 1): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (mailsTo(to).length < count) {
    if (Date.now() > deadline) throw new Error(`no mail for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return mailsTo(to);
}

// A real SMTP server on loopback: mention mails go out exactly as through a mail relay.
beforeAll(async () => {
  smtp = await startSmtpSink();
  received = smtp.received;
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_SITE_URL: 'https://qc.example.org' });
  const created = await createTeamWorkspace(t);
  team = created.id;
  ({ admin, member, reviewer, viewer, outsider } = created.people);
  image = await upload(admin, 'brain-t1.png', await pngBytes());
  otherImage = await upload(member, 'knee.png', await pngBytes());
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('comments on an image', () => {
  it('stores a comment with its author and time, lists threads newest first, edits and deletes', async () => {
    const before = Date.now();
    const res = await post(member, '  Motion artefact on slices 12-14.  ');
    expect(res.statusCode).toBe(201);
    const first = res.json<CommentThread>();
    expect(first).toMatchObject({
      parent_id: null,
      author_id: member.id,
      author_name: 'Max Member',
      engine: false,
      text: 'Motion artefact on slices 12-14.',
      edited_ts: null,
      deleted: false,
      can_edit: true,
      can_delete: true,
      replies: [],
    });
    expect(first.ts).toBeGreaterThanOrEqual(before - 1000);
    t.clock.advance(1000);
    const second = await write(reviewer, 'Agreed, exclude the series.');

    // Every member of the workspace sees both, newest first; flags are the caller's.
    const seen = (await comments(admin)).json<CommentThread[]>();
    expect(seen.map((c) => c.id)).toEqual([second, first.id]);
    expect(seen[1]).toMatchObject({ can_edit: false, can_delete: true });
    const bySomeoneElse = (await comments(reviewer)).json<CommentThread[]>();
    expect(bySomeoneElse[1]).toMatchObject({ can_edit: false, can_delete: false });

    t.clock.advance(1000);
    const edited = await edit(member, first.id, 'Motion artefact on slices 12-15.');
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ text: 'Motion artefact on slices 12-15.' });
    expect(edited.json().edited_ts).toBeGreaterThan(edited.json().ts);

    expect((await remove(member, first.id)).statusCode).toBe(204);
    expect((await comments(member)).json<CommentThread[]>().map((c) => c.id)).toEqual([second]);
    expect((await remove(member, first.id)).statusCode).toBe(404);
    // Comments stay on their image.
    expect((await comments(member, otherImage)).json()).toEqual([]);
  });

  it('threads replies one level deep, oldest first, and keeps a deleted comment that has replies', async () => {
    const root = await write(admin, 'Is the coil placement right here?');
    t.clock.advance(1000);
    const reply = await write(member, 'Yes, head coil, standard.', root);
    t.clock.advance(1000);
    // A reply to a reply joins the thread instead of nesting deeper.
    const res = await post(reviewer, 'Thanks both.', reply);
    expect(res.statusCode).toBe(201);
    const thread = res.json<CommentThread>();
    expect(thread.id).toBe(root);
    expect(thread.replies.map((r) => [r.author_name, r.parent_id])).toEqual([
      ['Max Member', root],
      ['Rita Reviewer', root],
    ]);

    // A reply names a comment of the same image.
    const elsewhere = await post(member, 'On the knee', undefined, otherImage);
    const foreign = await post(member, 'wrong image', elsewhere.json().id);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ detail: 'The comment you reply to no longer exists' });

    // The root's author deletes it: the replies keep their thread under an empty, deleted entry.
    expect((await remove(admin, root)).statusCode).toBe(204);
    let kept = (await comments(member)).json<CommentThread[]>().find((c) => c.id === root)!;
    expect(kept).toMatchObject({ deleted: true, text: '', can_edit: false, can_delete: false });
    expect(kept.replies).toHaveLength(2);
    expect((await edit(admin, root, 'back')).statusCode).toBe(404);
    // When the last reply goes, the whole thread goes.
    for (const r of kept.replies) {
      const who = r.author_id === member.id ? member : reviewer;
      expect((await remove(who, r.id)).statusCode).toBe(204);
    }
    kept = (await comments(member)).json<CommentThread[]>().find((c) => c.id === root)!;
    expect(kept).toBeUndefined();
  });
});

describe('who may do what', () => {
  it('lets only the author edit, and the author or an admin delete', async () => {
    const id = await write(member, 'Noise looks high.');
    for (const who of [reviewer, admin]) {
      const res = await edit(who, id, 'changed by someone else');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: COMMENT_NOT_YOURS });
    }
    const byReviewer = await remove(reviewer, id);
    expect(byReviewer.statusCode).toBe(403);
    expect(byReviewer.json()).toEqual({ detail: COMMENT_NOT_YOURS });
    expect((await remove(admin, id)).statusCode).toBe(204);
  });

  it('lets a viewer read but not write', async () => {
    const id = await write(member, 'For the viewer to read.');
    expect((await comments(viewer)).json<CommentThread[]>()[0]).toMatchObject({
      id,
      can_edit: false,
      can_delete: false,
    });
    for (const res of [await post(viewer, 'hello'), await edit(viewer, id, 'x'), await remove(viewer, id)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Your role in this workspace does not allow this' });
    }
  });

  it('answers 404 to everyone outside the workspace, on every route', async () => {
    const id = await write(member, 'Private to the team.');
    for (const res of [
      await comments(outsider),
      await post(outsider, 'let me in'),
      await edit(outsider, id, 'x'),
      await remove(outsider, id),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: WORKSPACE_NOT_FOUND });
    }
    // From their own workspace the team's image does not exist either.
    const own = await call(outsider, 'GET', `/uploads/${image}/comments`, undefined, null);
    expect(own.statusCode).toBe(404);
    expect(own.json()).toEqual({ detail: 'Image not found' });
    const mine = await call(outsider, 'DELETE', `/uploads/${image}/comments/${id}`, undefined, null);
    expect(mine.statusCode).toBe(404);
    // And nothing was changed.
    expect((await comments(member)).json<CommentThread[]>().find((c) => c.id === id)?.text).toBe(
      'Private to the team.',
    );
  });

  it('answers 404 for an unknown comment and 401 without a session', async () => {
    expect((await edit(member, '00000000-0000-4000-8000-000000000000', 'x')).statusCode).toBe(404);
    expect((await remove(member, 'not-a-uuid')).json()).toEqual({ detail: 'Comment not found' });
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/uploads/${image}/comments` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses bad input with 400 and a detail, never 500', async () => {
    const cases: [unknown, RegExp][] = [
      [{ text: '   ' }, /Comment is empty/],
      [{ text: 'x'.repeat(COMMENT_MAX_LENGTH + 1) }, /too long/],
      [{}, /./],
      [{ text: 42 }, /./],
      [{ text: 'ok', parent_id: 7 }, /./],
      [{ text: 'ok', parent_id: 'x'.repeat(101) }, /./],
    ];
    for (const [payload, detail] of cases) {
      const res = await call(member, 'POST', `/uploads/${image}/comments`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    expect((await post(member, 'ok', 'not-a-uuid')).statusCode).toBe(400);
    const plain = await call(member, 'POST', `/uploads/${image}/comments`, 'not json at all');
    expect(plain.statusCode).toBe(415);
    expect(plain.json().detail).toEqual(expect.any(String));
    const long = await call(member, 'GET', `/uploads/${'a'.repeat(400)}/comments`);
    expect([400, 414]).toContain(long.statusCode);
    expect(long.json().detail).toEqual(expect.any(String));
    expect((await post(member, 'x'.repeat(COMMENT_MAX_LENGTH))).statusCode).toBe(201);
  });
});

describe('@mentions', () => {
  it('mails each mentioned member once through SMTP, never the author or someone outside', async () => {
    const res = await post(
      member,
      '@rita reviewer please look at the ghosting; cc @Vic Viewer, @Max Member and @Otto Outsider.',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().mentions.sort()).toEqual([reviewer.id, viewer.id].sort());
    const [toRita] = await waitForMail(reviewer.email);
    expect(toRita).toContain('Subject: Max Member mentioned you in a comment on brain-t1.png');
    expect(toRita).toContain('"Neuro QC"');
    expect(toRita).toContain('> @rita reviewer please look at the ghosting');
    // The link opens that image in that workspace.
    expect(textsTo(reviewer.email)[0]!.split(/\r?\n/)).toContain(
      `https://qc.example.org/dashboard/images?workspace=${team}&image=${encodeURIComponent(image)}`,
    );
    await waitForMail(viewer.email);
    // Give a stray mail time to arrive before checking there is none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(member.email)).toHaveLength(0);
    expect(mailsTo(outsider.email)).toHaveLength(0);
    expect(mailsTo(reviewer.email)).toHaveLength(1);

    // An edit mails only those it mentions for the first time.
    const toAdmin = mailsTo(admin.email).length;
    const edited = await edit(member, res.json().id, '@Rita Reviewer and @Ada Admin: ghosting confirmed.');
    expect(edited.statusCode).toBe(200);
    await waitForMail(admin.email, toAdmin + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(reviewer.email)).toHaveLength(1);
    expect(mailsTo(viewer.email)).toHaveLength(1);
  });

  it('mentions no one from an e-mail address or a longer word', async () => {
    const res = await post(member, 'write to rita@Rita Reviewer.org or @Rita Reviewers');
    expect(res.json().mentions).toEqual([]);
  });
});

describe('reply notices', () => {
  it("mail the thread's first author once, never for their own reply, and not after they left", async () => {
    const leaver = await createSignedInUser(t, { name: 'Lea Leaver' });
    await t.app.workspaces.addMember(team, leaver.id, 'member', t.clock.now());
    const thread = await write(member, 'Is this slice thickness right?');
    const count = (who: TestUser) => mailsTo(who.email).length;
    const before = count(member);

    // A reply to a reply still tells the thread's first author.
    const first = await write(reviewer, 'It is 5 mm, too thick for this protocol.', thread);
    await waitForMail(member.email, before + 1);
    const notice = textsTo(member.email).at(-1)!;
    expect(notice).toContain('Subject: Rita Reviewer replied to your comment on brain-t1.png');
    expect(notice).toContain('in the workspace "Neuro QC"');
    expect(notice).toContain('> It is 5 mm, too thick for this protocol.');
    expect(notice.split(/\r?\n/)).toContain(
      `https://qc.example.org/dashboard/images?workspace=${team}&image=${encodeURIComponent(image)}`,
    );
    await write(admin, 'Agreed.', first);
    await waitForMail(member.email, before + 2);

    // Their own reply, and a reply that mentions them (the mention mail tells them), add nothing more.
    await write(member, 'Thanks, I will re-acquire.', thread);
    await write(reviewer, '@Max Member please attach the new series.', thread);
    await waitForMail(member.email, before + 3);
    await settle();
    expect(count(member)).toBe(before + 3);
    expect(textsTo(member.email).at(-1)).toContain('Subject: Rita Reviewer mentioned you in a comment');
    // Replying writers are not told of each other's replies.
    expect(textsTo(reviewer.email).filter((m) => m.includes('replied to your comment'))).toHaveLength(0);

    // A first author who left the workspace hears nothing.
    const gone = await write(leaver, 'Please check the scout.');
    await t.app.workspaces.removeMember(team, leaver.id);
    await write(reviewer, 'Scout looks fine.', gone);
    await settle();
    expect(count(leaver)).toBe(0);
  });
});

describe('one image of the library', () => {
  it('answers its list item to members and 404 outside the workspace', async () => {
    const res = await call(viewer, 'GET', `/uploads/${image}/item`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      stored_filename: image,
      original_name_guess: 'brain-t1.png',
      thumbnail_url: expect.any(String),
    });
    const outside = await call(outsider, 'GET', `/uploads/${image}/item`);
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toEqual({ detail: WORKSPACE_NOT_FOUND });
    // In the outsider's own workspace the name matches nothing.
    const own = await call(outsider, 'GET', `/uploads/${image}/item`, undefined, null);
    expect(own.statusCode).toBe(404);
    expect(own.json()).toEqual({ detail: 'Image not found' });
  });
});

describe('quality-check results', () => {
  it('appear as the engine’s [QC] comment that members can answer but not edit', async () => {
    const dicom = await upload(member, 'phantom.dcm', await phantomDicom());
    const checked = await call(member, 'POST', '/llm/generate-messages', {
      model: 'google/medgemma-4b-it',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `/api/v1/uploads/${dicom}` } }] }],
    });
    expect(checked.statusCode).toBe(200);
    const summary: string = checked.json().choices[0].message.content;
    const [engine] = (await comments(member, dicom)).json<CommentThread[]>();
    expect(engine).toMatchObject({
      author_id: null,
      author_name: 'QC engine',
      engine: true,
      text: `[QC] ${summary.trim()}`,
      can_edit: false,
      can_delete: false,
    });
    expect(engine!.text).toMatch(/^\[QC\] QC verdict: /);
    const reply = await call(reviewer, 'POST', `/uploads/${dicom}/comments`, { text: 'Agree.', parent_id: engine!.id });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().replies[0].text).toBe('Agree.');
    const byMember = await call(member, 'DELETE', `/uploads/${dicom}/comments/${engine!.id}`);
    expect(byMember.statusCode).toBe(403);
    const byAdminEdit = await call(admin, 'PATCH', `/uploads/${dicom}/comments/${engine!.id}`, { text: 'x' });
    expect(byAdminEdit.statusCode).toBe(403);
    // The admin's view offers deleting it; the check result itself stays in the image's QC history.
    expect((await comments(admin, dicom)).json<CommentThread[]>()[0]!.can_delete).toBe(true);
    expect((await call(admin, 'DELETE', `/uploads/${dicom}/comments/${engine!.id}`)).statusCode).toBe(204);
    expect((await call(member, 'GET', `/uploads/${dicom}/qc-results`)).json()).toHaveLength(1);
  });

  it('appear for each image of a batch check too', async () => {
    const dicom = await upload(member, 'batch-phantom.dcm', await phantomDicom());
    const created = await call(member, 'POST', '/qc/batches', { scope: 'selection', stored_filenames: [dicom] });
    expect(created.statusCode).toBe(202);
    const deadline = Date.now() + 20_000;
    while ((await call(member, 'GET', `/qc/batches/${created.json().id}`)).json().status !== 'done') {
      if (Date.now() > deadline) throw new Error('batch not done');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [engine] = (await comments(reviewer, dicom)).json<CommentThread[]>();
    expect(engine).toMatchObject({ engine: true, author_name: 'QC engine' });
    expect(engine!.text).toMatch(/^\[QC\] QC verdict: /);
  });

  it('deleting the image removes its comments with it', async () => {
    const doomed = await upload(member, 'doomed.png', await pngBytes());
    expect((await post(member, 'soon gone', undefined, doomed)).statusCode).toBe(201);
    expect((await call(member, 'DELETE', `/uploads/${doomed}`)).statusCode).toBe(204);
    expect((await comments(member, doomed)).statusCode).toBe(404);
  });
});
