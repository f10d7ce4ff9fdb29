import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { nowColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';

/** How each user wants dates written, kept on the server so every browser they sign in from agrees. */
export const userPreferences = pgTable('user_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** One of the time zones Settings offers. */
  timeZone: text('time_zone').notNull(),
  /** iso, dmy, mdy or long. */
  dateFormat: text('date_format').notNull(),
  updatedAt: nowColumn('updated_at'),
});
