// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImageReview, QueueItem } from '../../../contract/reviews.ts';
import {
  $queue,
  $queueAnnouncement,
  $queueCurrent,
  $ratingDraft,
  loadQueue,
  moveInQueue,
  queueKey,
  rateCurrent,
} from '../../../src/stores/reviews.ts';

const item = (name: string): QueueItem => ({
  stored_filename: name,
  original_name_guess: `${name}.xyz`,
  extension: '.xyz',
  url: `/api/v1/uploads/${name}`,
  modified: 1,
  status: 'unrated',
  latest: null,
  my_rating: null,
  qc_verdict: null,
  assigned_to_me: false,
});

const review = (name: string, rated = false): ImageReview => ({
  stored_filename: name,
  status: rated ? 'rated' : 'unrated',
  escalation: null,
  latest: rated ? { rating: 'unusable', tier: 1 } : null,
  my_rating: rated
    ? {
        rater_id: 'u',
        rater_name: 'Kay',
        rating: 'unusable',
        tags: ['motion'],
        note: '',
        rated_at: '2026-01-01T00:00:00Z',
      }
    : null,
  ratings: [],
  hidden_ratings: 0,
  decision: null,
  assignees: [],
  can_rate: true,
  can_decide: false,
});

describe('the review queue store', () => {
  let calls: { method: string; url: string; body?: unknown }[];
  beforeEach(() => {
    calls = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(init.body as string) : undefined });
      const path = new URL(url, 'http://x').pathname + new URL(url, 'http://x').search;
      if (path.includes('/reviews/queue') && path.includes('after=b'))
        return Response.json({ items: [item('c')], total: 3, next: null });
      if (path.includes('/reviews/queue')) return Response.json({ items: [item('a'), item('b')], total: 3, next: 'b' });
      const name = path.split('/')[4]!;
      return Response.json(review(name, method === 'PUT'));
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('moves with the keys, and fetches the next page when the rater reaches the last image loaded', async () => {
    await loadQueue('unrated');
    expect($queueAnnouncement.get()).toBe('3 images. Image 1 of 3: a.xyz.');
    expect(queueKey('n')).toBe(true);
    await vi.waitFor(() => expect($queueCurrent.get()?.stored_filename).toBe('b'));
    await moveInQueue(1);
    expect($queueCurrent.get()?.stored_filename).toBe('c');
    expect(calls.some((c) => c.url.includes('/reviews/queue?filter=unrated&limit=200&after=b'))).toBe(true);
    await moveInQueue(1);
    expect($queueAnnouncement.get()).toBe('This is the last image.');
    await moveInQueue(-5);
    expect($queueAnnouncement.get()).toBe('Image 1 of 3: a.xyz.');
    await moveInQueue(-1);
    expect($queueAnnouncement.get()).toBe('This is the first image.');
    expect(queueKey('x')).toBe(false);
  });

  it('sends the drafted tags and note with the rating, then moves on', async () => {
    await loadQueue('unrated');
    $ratingDraft.set({ tags: ['motion'], note: 'blurred' });
    expect(await rateCurrent('unusable')).toBe(true);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toContain('/uploads/a/review/rating');
    expect(put.body).toEqual({ rating: 'unusable', tags: ['motion'], note: 'blurred' });
    const state = $queue.get();
    expect(state.status === 'ready' && state.items[0]!.my_rating).toBe('unusable');
    expect($queueCurrent.get()?.stored_filename).toBe('b');
    expect($queueAnnouncement.get()).toBe('Rated Unusable. Image 2 of 3: b.xyz.');
    // The next image's draft starts empty (it has no rating of the caller's).
    expect($ratingDraft.get()).toEqual({ tags: [], note: '' });
  });
});
