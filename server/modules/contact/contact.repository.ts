import type { Database } from '../../db/connect.ts';
import { contactMessages } from './contact.table.ts';

/** A contact message as the form sent it, already validated. */
export interface NewContactMessage {
  fullName: string;
  email: string;
  institution: string | null;
  message: string;
  at: Date;
}

/** Keeps contact-form messages in `contact_messages`. */
export function createContactRepository({ db }: { db: Database }) {
  return {
    /** Stores one message and returns its id. */
    async save(input: NewContactMessage): Promise<string> {
      const [row] = await db
        .insert(contactMessages)
        .values({
          fullName: input.fullName,
          email: input.email,
          institution: input.institution,
          message: input.message,
          createdAt: input.at,
        })
        .returning({ id: contactMessages.id });
      return row!.id;
    },
  };
}

export type ContactRepository = ReturnType<typeof createContactRepository>;
