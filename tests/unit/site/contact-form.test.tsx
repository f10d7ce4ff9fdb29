// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import ContactForm from '../../../src/islands/contact/ContactForm.tsx';
import { $contactStatus } from '../../../src/stores/contact.ts';

describe('ContactForm', () => {
  afterEach(() => {
    cleanup();
    $contactStatus.set('idle');
  });

  it('labels every field and marks the required ones', () => {
    render(<ContactForm />);
    for (const label of ['Full name', 'Email', 'Message'])
      expect((screen.getByLabelText(label) as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Institution (optional)') as HTMLInputElement).required).toBe(false);
  });

  it('reads "Sending..." and is disabled while the store sends, then announces the outcome', () => {
    render(<ContactForm />);
    act(() => $contactStatus.set('sending'));
    const button = screen.getByRole('button');
    expect(button.textContent).toBe('Sending...');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    act(() => $contactStatus.set('sent'));
    expect(screen.getByRole('status').textContent).toBe('Message sent successfully.');
    act(() => $contactStatus.set('failed'));
    expect(screen.getByRole('status').textContent).toBe('Failed to send message. Please try again.');
    expect(screen.getByRole('button').textContent).toBe('Send message');
  });
});
