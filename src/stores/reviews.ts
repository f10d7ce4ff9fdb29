import { atom, computed, onMount } from 'nanostores';
import type {
  ImageReview,
  LatestDecision,
  LatestList,
  QueueFilter,
  QueueItem,
  QueuePage,
  ReviewRating,
} from '../../contract/reviews.ts';
import { api, errorMessage } from '../lib/api.ts';
import { isPreviewable } from '../lib/preview-types.ts';
import { isServerPreviewed } from '../lib/volume-preview-types.ts';
import { apiPathOf } from './images.ts';

/** The review queue as last loaded, and which of its images is shown. */
export type QueueState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; items: QueueItem[]; total: number; index: number; next: string | null };

/** The filter the queue page shows. */
export const $queueFilter = atom<QueueFilter>('unrated');
export const $queue = atom<QueueState>({ status: 'loading' });
/** The review of the image shown, as the server lets the caller see it. */
export const $currentReview = atom<ImageReview | undefined>(undefined);
/** The large preview of the image shown. */
export const $queuePreview = atom<{ status: 'loading' | 'none' | 'failed' } | { status: 'ready'; url: string }>({
  status: 'none',
});
/** What the queue last told screen-reader users (an aria-live region reads it). */
export const $queueAnnouncement = atom('');
/** Artefact tags and a note, drafted before a rating or a decision is given. */
export interface RatingDraft {
  tags: string[];
  note: string;
}
/** The tier-1 rating being drafted for the image shown: starts from the caller's own rating of it. */
export const $ratingDraft = atom<RatingDraft>({ tags: [], note: '' });
/** The tier-2 decision being drafted for the image shown. */
export const $decisionDraft = atom<RatingDraft>({ tags: [], note: '' });
/** The last error of a rating or decision. */
export const $queueError = atom('');

/** The image shown, if any. */
export const $queueCurrent = computed($queue, (state) =>
  state.status === 'ready' ? state.items[state.index] : undefined,
);

/** Labels of the ratings, shown and announced. */
export const RATING_LABELS: Record<ReviewRating, string> = {
  usable: 'Usable',
  questionable: 'Questionable',
  unusable: 'Unusable',
};

// Each shown image gets a number, so an answer for an image left meanwhile is dropped.
let showing = 0;

function positionText(state: QueueState): string {
  if (state.status !== 'ready' || state.items.length === 0) return 'No images to review in this filter.';
  const item = state.items[state.index]!;
  const of = Math.max(state.total, state.items.length);
  return `Image ${state.index + 1} of ${of}: ${item.original_name_guess || item.stored_filename}.`;
}

function previewPathOf(item: QueueItem): string | undefined {
  const encoded = encodeURIComponent(item.stored_filename);
  if (isServerPreviewed(item.extension)) return `/uploads/${encoded}/preview.png`;
  if (isPreviewable(item.extension)) return apiPathOf(item.url);
  return undefined;
}

async function show(item: QueueItem | undefined): Promise<void> {
  const current = ++showing;
  const old = $queuePreview.get();
  if (old.status === 'ready') URL.revokeObjectURL(old.url);
  $currentReview.set(undefined);
  $queueError.set('');
  $ratingDraft.set({ tags: [], note: '' });
  $decisionDraft.set({ tags: [], note: '' });
  if (!item) return $queuePreview.set({ status: 'none' });
  const path = previewPathOf(item);
  $queuePreview.set({ status: path ? 'loading' : 'none' });
  const review = api.get(`/uploads/${encodeURIComponent(item.stored_filename)}/review`).json<ImageReview>();
  const preview = path ? api.get(path).blob() : Promise.resolve(undefined);
  try {
    const loaded = await review;
    if (current === showing) {
      $currentReview.set(loaded);
      $ratingDraft.set({ tags: loaded.my_rating?.tags ?? [], note: loaded.my_rating?.note ?? '' });
    }
  } catch (error) {
    if (current === showing) $queueError.set(errorMessage(error, 'Failed to load the review'));
  }
  try {
    const blob = await preview;
    if (current !== showing || !blob) return;
    $queuePreview.set({ status: 'ready', url: URL.createObjectURL(blob) });
  } catch {
    if (current === showing) $queuePreview.set({ status: 'failed' });
  }
}

/** Loads the queue under a filter and shows its first image. */
export async function loadQueue(filter: QueueFilter = $queueFilter.get()): Promise<void> {
  $queueFilter.set(filter);
  $queue.set({ status: 'loading' });
  try {
    const page = await api.get(`/reviews/queue?filter=${filter}&limit=${QUEUE_PAGE}`).json<QueuePage>();
    const state: QueueState = { status: 'ready', items: page.items, total: page.total, index: 0, next: page.next };
    $queue.set(state);
    $queueAnnouncement.set(`${page.total} images. ${positionText(state)}`);
    await show(page.items[0]);
  } catch (error) {
    $queue.set({ status: 'failed', message: errorMessage(error, 'Failed to load the review queue') });
  }
}

/** Images fetched at once; the next ones come when the rater reaches the last. */
const QUEUE_PAGE = 200;

/** Appends the queue's next page, if there is one. */
async function loadMore(): Promise<void> {
  const state = $queue.get();
  if (state.status !== 'ready' || !state.next) return;
  try {
    const filter = $queueFilter.get();
    const page = await api
      .get(`/reviews/queue?filter=${filter}&limit=${QUEUE_PAGE}&after=${encodeURIComponent(state.next)}`)
      .json<QueuePage>();
    const now = $queue.get();
    if (now.status !== 'ready' || now.next !== state.next) return;
    $queue.set({ ...now, items: [...now.items, ...page.items], next: page.next });
  } catch (error) {
    $queueError.set(errorMessage(error, 'Failed to load the review queue'));
  }
}

/** Moves by `step` images (1 next, −1 previous), staying inside the queue. */
export async function moveInQueue(step: number): Promise<void> {
  if (step > 0) {
    const before = $queue.get();
    if (before.status === 'ready' && before.index + step >= before.items.length) await loadMore();
  }
  const state = $queue.get();
  if (state.status !== 'ready' || state.items.length === 0) return;
  const index = Math.min(Math.max(state.index + step, 0), state.items.length - 1);
  if (index === state.index) {
    $queueAnnouncement.set(step > 0 ? 'This is the last image.' : 'This is the first image.');
    return;
  }
  const next = { ...state, index };
  $queue.set(next);
  $queueAnnouncement.set(positionText(next));
  await show(next.items[index]);
}

function replaceCurrent(review: ImageReview, rating: ReviewRating | null): void {
  $currentReview.set(review);
  const state = $queue.get();
  if (state.status !== 'ready') return;
  const items = state.items.map((item, i) =>
    i === state.index ? { ...item, my_rating: rating, status: review.status, latest: review.latest } : item,
  );
  $queue.set({ ...state, items });
}

/** Gives the shown image the caller's tier-1 rating, then moves to the next image. */
export async function rateCurrent(rating: ReviewRating): Promise<boolean> {
  const item = $queueCurrent.get();
  const review = $currentReview.get();
  if (!item) return false;
  if (!review) {
    $queueAnnouncement.set('Still loading this image; rate it again in a moment.');
    return false;
  }
  const { tags, note } = $ratingDraft.get();
  if (!review.can_rate) {
    const why = review.decision
      ? 'This image already has a final decision.'
      : 'Your role in this workspace reads only.';
    $queueAnnouncement.set(why);
    return false;
  }
  try {
    const saved = await api
      .put({ rating, tags, note }, `/uploads/${encodeURIComponent(item.stored_filename)}/review/rating`)
      .json<ImageReview>();
    replaceCurrent(saved, rating);
    const state = $queue.get();
    const last = state.status === 'ready' && state.index === state.items.length - 1 && !state.next;
    $queueAnnouncement.set(`Rated ${RATING_LABELS[rating]}. ${last ? 'That was the last image.' : ''}`);
    if (!last) {
      await moveInQueue(1);
      $queueAnnouncement.set(`Rated ${RATING_LABELS[rating]}. ${positionText($queue.get())}`);
    }
    return true;
  } catch (error) {
    $queueError.set(errorMessage(error, 'Failed to save the rating'));
    return false;
  }
}

/** Records the tier-2 decision on the shown image. */
export async function decideCurrent(rating: ReviewRating): Promise<boolean> {
  const item = $queueCurrent.get();
  if (!item) return false;
  const { tags, note } = $decisionDraft.get();
  try {
    const saved = await api
      .post({ rating, tags, note }, `/uploads/${encodeURIComponent(item.stored_filename)}/review/decision`)
      .json<ImageReview>();
    replaceCurrent(saved, item.my_rating);
    $queueAnnouncement.set(`Final decision: ${RATING_LABELS[rating]}.`);
    return true;
  } catch (error) {
    $queueError.set(errorMessage(error, 'Failed to save the decision'));
    return false;
  }
}

/** Replaces the members the shown image is assigned to (admins); resolves to an error message, or undefined. */
export async function assignCurrent(userIds: string[]): Promise<string | undefined> {
  const item = $queueCurrent.get();
  if (!item) return undefined;
  try {
    const saved = await api
      .put({ user_ids: userIds }, `/uploads/${encodeURIComponent(item.stored_filename)}/review/assignees`)
      .json<ImageReview>();
    $currentReview.set(saved);
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to assign the image');
  }
}

/** Toggles one artefact tag of a draft. */
export function toggleDraftTag(draft: typeof $ratingDraft, tag: string): void {
  const { tags, note } = draft.get();
  draft.set({ note, tags: tags.includes(tag) ? tags.filter((t) => t !== tag) : [...tags, tag] });
}

/** Handles a key of the queue: n/→ next, p/← previous, 1/2/3 rate, t tags; false for any other key. */
export function queueKey(key: string): boolean {
  const ratings: Record<string, ReviewRating> = { '1': 'usable', '2': 'questionable', '3': 'unusable' };
  if (key === 'n' || key === 'ArrowRight') void moveInQueue(1);
  else if (key === 'p' || key === 'ArrowLeft') void moveInQueue(-1);
  else if (ratings[key]) void rateCurrent(ratings[key]);
  else return false;
  return true;
}

/** Leaves the queue page: frees the preview and forgets answers still on their way. */
export function leaveQueue(): void {
  showing++;
  const old = $queuePreview.get();
  if (old.status === 'ready') URL.revokeObjectURL(old.url);
  $queuePreview.set({ status: 'none' });
  $currentReview.set(undefined);
}

/** The latest decision of each image of the library that has one, for the cards and the details. */
export const $latestDecisions = atom<Map<string, LatestDecision>>(new Map());

/** Loads the latest decisions of the current workspace's images; a failure leaves the cards without them. */
export async function loadLatestDecisions(): Promise<void> {
  try {
    const list = await api.get('/reviews/latest').json<LatestList>();
    $latestDecisions.set(new Map(list.map((entry) => [entry.stored_filename, entry.latest])));
  } catch {
    $latestDecisions.set(new Map());
  }
}

// Loaded whenever a card or the details modal starts showing decisions, so they follow the latest ratings.
onMount($latestDecisions, () => {
  void loadLatestDecisions();
});
