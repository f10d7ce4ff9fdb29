import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Primary key: a random UUID made by the database. */
export const idColumn = () => uuid('id').primaryKey().defaultRandom();

/** When the row was made; set by the database. */
export const createdAtColumn = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** A nullable moment, for expiries and one-time uses. */
export const momentColumn = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A moment that defaults to now, such as updated_at or last_seen_at. */
export const nowColumn = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' }).notNull().defaultNow();
