// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { qcRequest } from '../../../src/lib/qc-request.ts';
import {
  $comments,
  $commentsLoad,
  COMMENT_SAVE_DELAY_MS,
  loadComments,
  saveComment,
} from '../../../src/stores/comments.ts';
import { $token } from '../../../src/stores/session.ts';
import { apiPathOf } from '../../../src/stores/images.ts';
import { $settings, $settingsSaved, saveSettings, settingsEdited } from '../../../src/stores/settings.ts';

describe('comments store', () => {
  const thread = {
    id: 'c1',
    parent_id: null,
    author_id: 'u1',
    author_name: 'Ada',
    engine: false,
    text: 'Looks sharp',
    ts: 5,
    edited_ts: null,
    deleted: false,
    mentions: [],
    can_edit: true,
    can_delete: true,
    replies: [],
  };
  let calls: { method: string; url: string; body?: unknown }[];
  let listAnswer: () => Response;
  beforeEach(() => {
    vi.useFakeTimers();
    $comments.set({});
    calls = [];
    listAnswer = () => Response.json([thread]);
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(init.body as string) : undefined });
      return method === 'GET' ? listAnswer() : Response.json(thread, { status: 201 });
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends a comment only after the 150 ms delay, then keeps the server’s copy under image_comments_v1', async () => {
    expect(COMMENT_SAVE_DELAY_MS).toBe(150);
    const saving = saveComment('a.png', 'Looks sharp');
    await vi.advanceTimersByTimeAsync(149);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await saving).toBeUndefined();
    expect(calls[0]).toMatchObject({ method: 'POST', body: { text: 'Looks sharp' } });
    expect(calls[0]!.url).toMatch(/\/uploads\/a\.png\/comments$/);
    expect(calls[1]).toMatchObject({ method: 'GET' });
    expect($comments.get()['a.png']?.map((c) => c.text)).toEqual(['Looks sharp']);
    expect(JSON.parse(localStorage.getItem('image_comments_v1')!)['a.png'][0].id).toBe('c1');
  });

  it('ignores blank text', async () => {
    await saveComment('a.png', '   ');
    expect(calls).toEqual([]);
  });

  it('keeps showing the saved copy when the server cannot be reached', async () => {
    $comments.set({ 'a.png': [thread] });
    listAnswer = () => Response.json({ detail: 'Service unavailable' }, { status: 503 });
    await loadComments('a.png');
    expect($commentsLoad.get()).toEqual({ storedFilename: 'a.png', status: 'offline', message: 'Service unavailable' });
    expect($comments.get()['a.png']).toEqual([thread]);
  });

  it('sends notes kept in this browser before comments were shared, once, and forgets the copy at sign-out', async () => {
    $comments.set({
      'a.png': [
        { text: 'old note', ts: 1 },
        { text: '[QC] Pass', ts: 2 },
      ],
    });
    await loadComments('a.png');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ text: 'old note' }]);
    expect($comments.get()['a.png']).toEqual([thread]);
    $token.set('t');
    $token.set(undefined);
    expect($comments.get()).toEqual({});
  });
});

describe('settings store', () => {
  it('keeps saved settings in this browser and shows Saved until the next edit', () => {
    saveSettings({
      fullName: 'A',
      email: 'a@example.org',
      timezone: 'Asia/Tokyo',
      dateFormat: 'dmy',
      emailSummaries: true,
    });
    expect($settingsSaved.get()).toBe(true);
    expect(JSON.parse(localStorage.getItem('dashboard_settings_v1')!)).toMatchObject({
      timezone: 'Asia/Tokyo',
      dateFormat: 'dmy',
      emailSummaries: true,
    });
    settingsEdited();
    expect($settingsSaved.get()).toBe(false);
    expect($settings.get().fullName).toBe('A');
  });
});

describe('request helpers', () => {
  it('turns an item url into a path under the API base', () => {
    expect(apiPathOf('/api/v1/uploads/a.png')).toBe('/uploads/a.png');
    expect(apiPathOf('https://qc.example.org/api/v1/uploads/a.png')).toBe('/uploads/a.png');
  });

  it('asks the vision model about the image with the QC prompt', () => {
    const body = qcRequest('/api/v1/uploads/a.png');
    expect(body.model).toMatch(/medgemma/);
    const [image, prompt] = body.messages[0]!.content;
    expect(image).toEqual({ type: 'image_url', image_url: { url: '/api/v1/uploads/a.png' } });
    expect(prompt?.type === 'text' && prompt.text).toMatch(/issues.*confidence.*0 to 100.*fixes/s);
  });
});

describe('uploads store', () => {
  it('refuses a file over the server limit before sending a byte', async () => {
    const { $uploadLimit } = await import('../../../src/stores/images.ts');
    const { $uploadJobs, uploadFiles } = await import('../../../src/stores/uploads.ts');
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        constructor() {
          throw new Error('no request may be made');
        }
      },
    );
    // The list reload that follows answers an empty list.
    vi.stubGlobal('fetch', async () => new Response('[]', { headers: { 'content-type': 'application/json' } }));
    $uploadLimit.set(2 * 1024 * 1024);
    await uploadFiles([new File([new Uint8Array(3 * 1024 * 1024)], 'huge.nii')]);
    expect($uploadJobs.get().at(-1)).toMatchObject({
      name: 'huge.nii',
      status: 'failed',
      error: 'This file is larger than the 2 MB limit',
    });
    vi.unstubAllGlobals();
  });
  it('shows a finished upload as whole although progress counted the multipart envelope', async () => {
    const { $uploadLimit } = await import('../../../src/stores/images.ts');
    const { $uploadJobs, uploadFiles } = await import('../../../src/stores/uploads.ts');
    class FinishingRequest extends EventTarget {
      upload = new EventTarget();
      status = 201;
      responseText = '{}';
      open() {}
      setRequestHeader() {}
      abort() {}
      send() {
        // The browser reports the body it sends: the file plus the multipart boundary and headers.
        const progress = Object.assign(new Event('progress'), { lengthComputable: true, loaded: 160, total: 1160 });
        this.upload.dispatchEvent(progress);
        this.upload.dispatchEvent(new Event('load'));
        queueMicrotask(() => this.dispatchEvent(new Event('load')));
      }
    }
    vi.stubGlobal('XMLHttpRequest', FinishingRequest);
    vi.stubGlobal('fetch', async () => new Response('[]', { headers: { 'content-type': 'application/json' } }));
    $uploadLimit.set(undefined);
    await uploadFiles([new File([new Uint8Array(1000)], 'small.png')]);
    const job = $uploadJobs.get().at(-1)!;
    expect(job).toMatchObject({ name: 'small.png', status: 'done' });
    expect(job.loaded / job.total).toBe(1);
    vi.unstubAllGlobals();
  });
});
