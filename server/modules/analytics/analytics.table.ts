import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from '../../db/columns.ts';

/** Anonymous page views: path and referrer only, no cookie, no IP. */
export const pageViews = pgTable(
  'page_views',
  {
    id: idColumn(),
    path: text('path').notNull(),
    referrer: text('referrer'),
    createdAt: createdAtColumn(),
  },
  (t) => [index('page_views_path_idx').on(t.path)],
);

/** Answers to "was this helpful?" on the user guide. */
export const feedback = pgTable('feedback', {
  id: idColumn(),
  page: text('page').notNull(),
  section: text('section').notNull(),
  helpful: boolean('helpful').notNull(),
  createdAt: createdAtColumn(),
});
