import { apiBase } from '../lib/api-base.ts';

/** What the status line says after an answer. */
export const feedbackMessages = {
  thanks: 'Thank you for your feedback.',
  failed: 'Your answer could not be sent. Please try again.',
} as const;

/** Stores one "Was this helpful?" answer through POST /feedback; true when the server kept it. */
export async function sendFeedback(page: string, section: string, helpful: boolean): Promise<boolean> {
  try {
    const response = await fetch(`${apiBase}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page, section, helpful }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Wires every Yes/No pair of the guide: one answer per section, then a thank-you in its status line. */
export function watchFeedback(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>('[data-feedback]').forEach((box) => {
    const status = box.querySelector<HTMLElement>('[role="status"]');
    const buttons = [...box.querySelectorAll<HTMLButtonElement>('button[data-helpful]')];
    buttons.forEach((button) =>
      button.addEventListener('click', async () => {
        buttons.forEach((b) => (b.disabled = true));
        const ok = await sendFeedback(location.pathname, box.dataset.feedback!, button.dataset.helpful === 'yes');
        if (status) status.textContent = ok ? feedbackMessages.thanks : feedbackMessages.failed;
        if (ok) button.setAttribute('aria-pressed', 'true');
        else buttons.forEach((b) => (b.disabled = false));
      }),
    );
  });
}
