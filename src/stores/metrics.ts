import { atom } from 'nanostores';
import type { ActivityItem, Metrics } from '../../contract/metrics.ts';
import { api, errorMessage } from '../lib/api.ts';

/** The Overview's cards. */
export type MetricsState =
  { status: 'loading' } | { status: 'ready'; metrics: Metrics } | { status: 'failed'; message: string };

/** The Overview's Recent Activity. */
export type ActivityState = { status: 'loading' } | { status: 'ready'; items: ActivityItem[] } | { status: 'failed' };

export const $metrics = atom<MetricsState>({ status: 'loading' });
export const $activity = atom<ActivityState>({ status: 'loading' });

/** Loads the cards and the activity list side by side. */
export async function loadOverview(): Promise<void> {
  await Promise.all([
    api
      .get('/dashboard/metrics')
      .json<Metrics>()
      .then((metrics) => $metrics.set({ status: 'ready', metrics }))
      .catch((error: unknown) =>
        $metrics.set({ status: 'failed', message: errorMessage(error, 'Failed to load metrics') }),
      ),
    api
      .get('/dashboard/activity')
      .json<ActivityItem[]>()
      .then((items) => $activity.set({ status: 'ready', items }))
      .catch(() => $activity.set({ status: 'failed' })),
  ]);
}
