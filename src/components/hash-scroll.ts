/** Delay before scrolling to the hash, so layout (fonts, sticky header) has settled (SPEC §9). */
export const HASH_SCROLL_DELAY_MS = 100;
/** Room left above the target for the sticky header (SPEC §9). */
export const HASH_SCROLL_OFFSET_PX = 120;

/**
 * Where the window must scroll to put an element 120 px below the top.
 * @example scrollTargetTop(900, 300) // 1080
 */
export function scrollTargetTop(elementTop: number, scrollY: number, offset = HASH_SCROLL_OFFSET_PX): number {
  return Math.max(0, elementTop + scrollY - offset);
}

function scrollToHash(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({
    top: scrollTargetTop(target.getBoundingClientRect().top, window.scrollY),
    behavior: reduce ? 'auto' : 'smooth',
  });
}

/** Scrolls smoothly to the URL hash 100 ms after load and after every hash change, 120 px below the top. */
export function watchHashScroll(): void {
  const later = () => window.setTimeout(scrollToHash, HASH_SCROLL_DELAY_MS);
  if (location.hash) later();
  window.addEventListener('hashchange', later);
}
