// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendFileWithProgress, UPLOAD_STALL_MS } from '../../../src/lib/xhr-upload.ts';

/** A stand-in for the browser's XMLHttpRequest that the test drives by hand. */
class DrivenXhr {
  static last: DrivenXhr;
  upload = new EventTarget();
  events = new EventTarget();
  headers: Record<string, string> = {};
  sent: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  constructor() {
    DrivenXhr.last = this;
  }
  addEventListener(type: string, listener: EventListener) {
    this.events.addEventListener(type, listener);
  }
  open(method: string, url: string) {
    this.headers[':request'] = `${method} ${url}`;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.events.dispatchEvent(new Event('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }));
  }
  answer(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.upload.dispatchEvent(new Event('load'));
    this.events.dispatchEvent(new Event('load'));
  }
}

describe('sendFileWithProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('XMLHttpRequest', DrivenXhr);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const file = () => Object.assign(new Blob(['x'.repeat(100)]), { name: 'scan.png' });

  it('sends the file as multipart field "file" with the bearer token and no content type of its own', async () => {
    const seen: number[] = [];
    const upload = sendFileWithProgress('/api/v1/uploads', file(), 'tok', (loaded) => seen.push(loaded));
    const xhr = DrivenXhr.last;
    expect(xhr.headers[':request']).toBe('POST /api/v1/uploads');
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    expect(Object.keys(xhr.headers).some((h) => h.toLowerCase() === 'content-type')).toBe(false);
    expect((xhr.sent as FormData).get('file')).toBeInstanceOf(Blob);
    xhr.progress(50, 100);
    xhr.answer(201, '{"stored_filename":"a.png"}');
    expect(seen).toEqual([50]);
    expect(await upload.result).toEqual({ kind: 'done', status: 201, body: { stored_filename: 'a.png' } });
  });

  it('gives up as stalled when no byte moves for 30 s, but not while progress continues', async () => {
    const upload = sendFileWithProgress('/u', file(), undefined, () => undefined);
    const xhr = DrivenXhr.last;
    expect(UPLOAD_STALL_MS).toBe(30_000);
    await vi.advanceTimersByTimeAsync(29_000);
    xhr.progress(10, 100);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(xhr.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(xhr.aborted).toBe(true);
    expect(await upload.result).toEqual({ kind: 'stalled' });
  });

  it('has no overall time limit: a long upload that keeps moving finishes', async () => {
    const upload = sendFileWithProgress('/u', file(), undefined, () => undefined);
    const xhr = DrivenXhr.last;
    for (let i = 1; i <= 20; i++) {
      await vi.advanceTimersByTimeAsync(20_000);
      xhr.progress(i * 5, 100);
    }
    xhr.answer(413, '{"detail":"too big"}');
    expect(await upload.result).toEqual({ kind: 'done', status: 413, body: { detail: 'too big' } });
  });

  it('reports a cancel as aborted', async () => {
    const upload = sendFileWithProgress('/u', file(), undefined, () => undefined);
    upload.abort();
    expect(await upload.result).toEqual({ kind: 'aborted' });
  });
});
