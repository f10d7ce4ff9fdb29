/** Scroll distance past which the header shrinks (SPEC §9). */
export const HEADER_SHRINK_PX = 50;

/** Whether the header should be compact at this scroll position. */
export function isCompact(scrollY: number): boolean {
  return scrollY > HEADER_SHRINK_PX;
}

/** Sets the account link (My Space or Sign In) from the token in local storage, as the head script does. */
export function syncAccountLink(): void {
  let signedIn = false;
  try {
    signedIn = Boolean(localStorage.getItem('token'));
  } catch {
    // Storage blocked by the browser: treat as signed out.
  }
  document.documentElement.dataset.auth = signedIn ? 'in' : 'out';
}

/** Shrinks the header past 50 px of scroll and drives the keyboard-usable mobile menu. */
export function watchHeader(): void {
  // A sign-in or sign-out in another tab, or a page restored from the back-forward cache, must not
  // leave the header showing the wrong account link.
  window.addEventListener('storage', (event) => {
    if (event.key === 'token' || event.key === null) syncAccountLink();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) syncAccountLink();
  });

  const header = document.querySelector<HTMLElement>('[data-site-header]');
  const toggle = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  if (!header || !toggle) return;
  const update = () => header.classList.toggle('is-compact', isCompact(window.scrollY));
  window.addEventListener('scroll', update, { passive: true });
  update();

  const setOpen = (open: boolean) => toggle.setAttribute('aria-expanded', String(open));
  toggle.addEventListener('click', () => setOpen(toggle.getAttribute('aria-expanded') !== 'true'));
  // Escape closes the menu and gives focus back to its button, as a disclosure should.
  header.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      toggle.focus();
    }
  });
  // Following a link inside the page (an anchor) closes the menu so the target is not hidden.
  header.querySelectorAll('nav a').forEach((link) => link.addEventListener('click', () => setOpen(false)));
}
