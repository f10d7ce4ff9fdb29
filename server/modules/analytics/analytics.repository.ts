import type { Database } from '../../db/connect.ts';
import { feedback, pageViews } from './analytics.table.ts';

/** Anonymous page views and guide feedback; nothing here identifies a person. */
export function createAnalyticsRepository({ db }: { db: Database }) {
  return {
    /** Records one page view. */
    async recordPageView(view: { path: string; referrer: string | null; at: Date }): Promise<void> {
      await db.insert(pageViews).values({ path: view.path, referrer: view.referrer, createdAt: view.at });
    },
    /** Records one "Was this helpful?" answer. */
    async recordFeedback(answer: { page: string; section: string; helpful: boolean; at: Date }): Promise<void> {
      await db.insert(feedback).values({
        page: answer.page,
        section: answer.section,
        helpful: answer.helpful,
        createdAt: answer.at,
      });
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
