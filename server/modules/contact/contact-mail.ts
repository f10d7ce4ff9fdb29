import type { MailMessage } from '../../mail/mailer.ts';
import type { NewContactMessage } from './contact.repository.ts';

/** The notification sent to the team's contact address for one message; replies go to the sender. */
export function contactNotification(to: string, id: string, input: NewContactMessage): MailMessage {
  const lines = [
    `New message from the contact form (${id}).`,
    '',
    `Name: ${input.fullName}`,
    `Email: ${input.email}`,
    `Institution: ${input.institution ?? '(not given)'}`,
    `Received: ${input.at.toISOString()}`,
    '',
    input.message,
  ];
  return {
    to,
    subject: `Contact form: ${input.fullName}`,
    text: lines.join('\n'),
    replyTo: input.email,
  };
}
