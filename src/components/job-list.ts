/**
 * The mailto link of Apply Now: the job title is the subject, so applications are sorted on arrival.
 * @example applyHref('jobs@x.eu', 'Engineer') // "mailto:jobs@x.eu?subject=Application%3A%20Engineer"
 */
export function applyHref(email: string, title: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(`Application: ${title}`)}`;
}

/** Makes the job cards of the careers page select one job at a time and show its detail panel. */
export function watchJobList(root: ParentNode = document): void {
  const cards = [...root.querySelectorAll<HTMLElement>('[data-job-card]')];
  const panels = [...root.querySelectorAll<HTMLElement>('[data-job-panel]')];
  const select = (id: string) => {
    for (const card of cards) {
      const selected = card.dataset.jobCard === id;
      card.classList.toggle('selected', selected);
      card.querySelector('button')?.setAttribute('aria-pressed', String(selected));
    }
    for (const panel of panels) panel.hidden = panel.dataset.jobPanel !== id;
  };
  for (const card of cards) {
    // The whole card is a target for the pointer; the button inside is the one for keyboards.
    card.addEventListener('click', () => select(card.dataset.jobCard!));
  }
}
