import { atom, computed } from 'nanostores';
import type { QcBatch, QcBatchResult, QcBatchResults } from '../../contract/qc-batch.ts';
import { analysisCsv, METRIC_SETS, type MetricSet } from '../lib/analysis-models.ts';
import { api, errorMessage } from '../lib/api.ts';
import { filterImages } from '../lib/image-search.ts';
import { $images } from './images.ts';
import { $workspaceId } from './workspace-choice.ts';

/** The batch the Analysis page follows: none yet, one being started, one with its progress and results. */
export type AnalysisBatch =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'following'; batch: QcBatch; results: QcBatchResult[]; cancelling: boolean }
  | { status: 'failed'; message: string; batch?: QcBatch; results?: QcBatchResult[] };

/** How often the progress is asked for while a batch runs. */
export const POLL_MS = 500;
const PAGE = 1000;

export const $metricSet = atom<MetricSet>(METRIC_SETS[0]);
export const $analysisBatch = atom<AnalysisBatch>({ status: 'idle' });
/** The chooser's search text. */
export const $analysisSearch = atom('');
/** The images ticked, by stored name; undefined until the user changes anything, meaning every image. */
export const $analysisTicked = atom<ReadonlySet<string> | undefined>(undefined);

/** The images the chooser lists: the library filtered by the search (SPEC §5's rule), newest first. */
export const $analysisCandidates = computed([$images, $analysisSearch], (state, query) =>
  filterImages(state.items, query),
);
/** The stored names of the images a run would check, in the library's order. */
export const $analysisChosen = computed([$images, $analysisTicked], (state, ticked) =>
  state.items.map((item) => item.stored_filename).filter((name) => !ticked || ticked.has(name)),
);

/** Whether a batch is over (done or cancelled). */
export const isOver = (batch: QcBatch) => batch.status === 'done' || batch.status === 'cancelled';

/** Picks the metric set whose measurements the table shows. */
export function selectMetricSet(set: MetricSet): void {
  $metricSet.set(set);
}

/** Sets the chooser's search text. */
export function searchAnalysisImages(query: string): void {
  $analysisSearch.set(query);
}

function ticked(): Set<string> {
  return new Set($analysisTicked.get() ?? $images.get().items.map((item) => item.stored_filename));
}

/** Ticks or unticks one image. */
export function tickImage(storedFilename: string, on: boolean): void {
  const next = ticked();
  if (on) next.add(storedFilename);
  else next.delete(storedFilename);
  $analysisTicked.set(next);
}

/** Ticks or unticks every image the search shows (the others keep their state). */
export function tickAllShown(on: boolean): void {
  const next = ticked();
  for (const item of $analysisCandidates.get()) {
    if (on) next.add(item.stored_filename);
    else next.delete(item.stored_filename);
  }
  $analysisTicked.set(next);
}

// Each follow gets a number; a newer one (or leaving the page) makes the older stop polling.
let following = 0;

// Another workspace has other images and batches: what was chosen and shown of the previous one is dropped.
$workspaceId.listen(() => {
  following++;
  $analysisBatch.set({ status: 'idle' });
  $analysisSearch.set('');
  $analysisTicked.set(undefined);
});

async function allResults(id: string): Promise<QcBatchResult[]> {
  const items: QcBatchResult[] = [];
  for (;;) {
    const page = await api.get(`/qc/batches/${id}/results?offset=${items.length}&limit=${PAGE}`).json<QcBatchResults>();
    items.push(...page.items);
    if (page.items.length < PAGE || items.length >= page.total) return items;
  }
}

async function follow(batch: QcBatch, turn: number): Promise<void> {
  let current = batch;
  try {
    while (turn === following && !isOver(current)) {
      const state = $analysisBatch.get();
      const cancelling = state.status === 'following' && state.cancelling;
      $analysisBatch.set({ status: 'following', batch: current, results: [], cancelling });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (turn !== following) return;
      current = await api.get(`/qc/batches/${current.id}`).json<QcBatch>();
    }
    if (turn !== following) return;
    const results = await allResults(current.id);
    if (turn === following) $analysisBatch.set({ status: 'following', batch: current, results, cancelling: false });
  } catch (error) {
    if (turn === following)
      $analysisBatch.set({
        status: 'failed',
        message: errorMessage(error, 'Failed to load the batch check'),
        batch: current,
      });
  }
}

/** Shows the user's latest batch, following it if it still runs (after a reload, or from another tab). */
export async function showLatestBatch(): Promise<void> {
  const turn = ++following;
  try {
    const [latest] = await api.get('/qc/batches').json<QcBatch[]>();
    if (turn !== following) return;
    if (!latest) return $analysisBatch.set({ status: 'idle' });
    await follow(latest, turn);
  } catch (error) {
    if (turn === following)
      $analysisBatch.set({ status: 'failed', message: errorMessage(error, 'Failed to load the batch check') });
  }
}

/** Stops following (the page is left); the batch itself carries on on the server. */
export function stopFollowing(): void {
  following++;
}

/** Starts a batch check of the chosen images and follows its progress. */
export async function runAnalysis(): Promise<void> {
  const names = $analysisChosen.get();
  if (names.length === 0) return;
  const turn = ++following;
  $analysisBatch.set({ status: 'starting' });
  try {
    // Every image chosen is the whole library: one scope instead of thousands of names (a selection holds at
    // most BATCH_MAX_IMAGES).
    const everything = names.length === $images.get().items.length;
    const body = everything ? { scope: 'library' as const } : { scope: 'selection' as const, stored_filenames: names };
    const batch = await api.post(body, '/qc/batches').json<QcBatch>();
    await follow(batch, turn);
  } catch (error) {
    if (turn === following) $analysisBatch.set({ status: 'failed', message: errorMessage(error, 'Analysis failed') });
  }
}

/** Asks the server to stop the batch being followed; the images in flight still finish. */
export async function cancelAnalysis(): Promise<void> {
  const state = $analysisBatch.get();
  if (state.status !== 'following' || isOver(state.batch)) return;
  $analysisBatch.set({ ...state, cancelling: true });
  try {
    await api.post(undefined, `/qc/batches/${state.batch.id}/cancel`).res();
  } catch (error) {
    $analysisBatch.set({ status: 'failed', message: errorMessage(error, 'Cancel failed'), batch: state.batch });
  }
}

/** The results shown, as a CSV file's text. */
export function analysisCsvText(): string {
  const state = $analysisBatch.get();
  return analysisCsv(state.status === 'following' ? state.results : (state.status === 'failed' && state.results) || []);
}
