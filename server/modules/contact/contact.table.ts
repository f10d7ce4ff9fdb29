import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from '../../db/columns.ts';

/** Messages sent through the public contact form. */
export const contactMessages = pgTable('contact_messages', {
  id: idColumn(),
  fullName: text('full_name').notNull(),
  email: text('email').notNull(),
  institution: text('institution'),
  message: text('message').notNull(),
  createdAt: createdAtColumn(),
});
