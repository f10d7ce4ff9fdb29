import { z } from './zod.ts';

// Line breaks in a name would let a sender forge mail headers or fake lines in the notification.
const singleLine = /^[^\r\n]*$/;

/** Body of POST /api/v1/contact-messages, the public contact form. */
export const contactMessageRequest = z.object({
  full_name: z
    .string()
    .trim()
    .min(1, 'Full name is required')
    .max(200, 'Full name is too long')
    .regex(singleLine, 'Full name must be one line')
    .describe('Sender name, as typed'),
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Email is too long')
    .pipe(z.email('Email is not a valid address'))
    .describe('Where the team answers'),
  institution: z
    .string()
    .trim()
    .max(200, 'Institution is too long')
    .regex(singleLine, 'Institution must be one line')
    .nullish()
    .transform((value) => value || null)
    .describe('Hospital, lab or company; optional'),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message is too long (5000 characters at most)')
    .describe('The question or request'),
  website: z
    .string()
    .max(500)
    .optional()
    .describe('Honeypot: hidden from people, so anything typed here marks a bot and the message is dropped'),
});
export type ContactMessageRequest = z.input<typeof contactMessageRequest>;

/** Answer of POST /api/v1/contact-messages. */
export const contactMessageResponse = z.object({
  status: z.literal('received').describe('The message was accepted'),
});
export type ContactMessageResponse = z.infer<typeof contactMessageResponse>;
