import { atom } from 'nanostores';
import type { ContactMessageRequest } from '../../contract/contact.ts';
import { api } from '../lib/api.ts';

/** Where the contact form stands: idle, sending, sent or failed (SPEC §4). */
export type ContactStatus = 'idle' | 'sending' | 'sent' | 'failed';

/** State of the contact form. */
export const $contactStatus = atom<ContactStatus>('idle');

/** The messages SPEC §8 shows after a send, to the letter. */
export const contactMessages = {
  sent: 'Message sent successfully.',
  failed: 'Failed to send message. Please try again.',
} as const;

/** Sends one message through POST /contact-messages; true when the server accepted it. */
export async function sendContactMessage(message: ContactMessageRequest): Promise<boolean> {
  if ($contactStatus.get() === 'sending') return false;
  $contactStatus.set('sending');
  try {
    await api.url('/contact-messages').post(message).res();
    $contactStatus.set('sent');
    return true;
  } catch {
    $contactStatus.set('failed');
    return false;
  }
}
