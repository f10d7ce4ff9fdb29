import { useStore } from '@nanostores/react';
import type { SubmitEvent } from 'react';
import { $contactStatus, contactMessages, sendContactMessage } from '../../stores/contact.ts';

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/** The contact form of the landing page; the store sends, this only renders and clears on success. */
export default function ContactForm() {
  const status = useStore($contactStatus);
  const sending = status === 'sending';

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const sent = await sendContactMessage({
      full_name: text(data, 'full_name'),
      email: text(data, 'email'),
      institution: text(data, 'institution') || null,
      message: text(data, 'message'),
      website: text(data, 'website') || undefined,
    });
    if (sent) form.reset();
  }

  return (
    <form className="contact-form" onSubmit={onSubmit} aria-busy={sending}>
      <div className="field">
        <label htmlFor="contact-name">Full name</label>
        <input id="contact-name" name="full_name" autoComplete="name" required maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor="contact-email">Email</label>
        <input id="contact-email" name="email" type="email" autoComplete="email" required maxLength={254} />
      </div>
      <div className="field">
        <label htmlFor="contact-institution">Institution (optional)</label>
        <input id="contact-institution" name="institution" autoComplete="organization" maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor="contact-message">Message</label>
        <textarea id="contact-message" name="message" rows={6} required maxLength={5000} />
      </div>
      {/* Hidden from people and assistive technology; bots that fill every field give themselves away. */}
      <div className="honeypot" aria-hidden="true">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" name="website" tabIndex={-1} autoComplete="off" />
      </div>
      <button className="button" type="submit" disabled={sending}>
        {sending ? 'Sending...' : 'Send message'}
      </button>
      <p className={`form-status ${status}`} role="status" aria-live="polite">
        {status === 'sent' && contactMessages.sent}
        {status === 'failed' && contactMessages.failed}
      </p>
    </form>
  );
}
