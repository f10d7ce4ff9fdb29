import { HASH_SCROLL_OFFSET_PX } from './hash-scroll.ts';

/**
 * Which section the reader is in: the last one whose top has passed the reading line (just under the
 * sticky header, where anchors land), or the first one before any has.
 * @example sectionAt([-400, 80, 900], 130) // 1
 */
export function sectionAt(tops: number[], readingLine: number): number {
  let current = 0;
  tops.forEach((top, index) => {
    if (top <= readingLine) current = index;
  });
  return current;
}

/**
 * Marks the link of `nav` whose section is in view with aria-current="location", as the reader scrolls,
 * and keeps it visible inside the navigation when the navigation scrolls on its own.
 */
export function watchSectionInView(nav: HTMLElement): void {
  const links = [...nav.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')];
  const sections = links.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1))));
  if (sections.some((s) => !s)) return;
  // A little under the line anchors land on, so a section reached by its link is already the current one.
  const readingLine = HASH_SCROLL_OFFSET_PX + 10;
  let current = -1;
  let queued = false;

  const update = () => {
    queued = false;
    const index = sectionAt(
      sections.map((s) => s!.getBoundingClientRect().top),
      readingLine,
    );
    if (index === current) return;
    links[current]?.removeAttribute('aria-current');
    current = index;
    const link = links[index]!;
    link.setAttribute('aria-current', 'location');
    // Scrolls only the navigation's own box: scrollIntoView would also move the page.
    if (nav.scrollHeight > nav.clientHeight) {
      const top = link.getBoundingClientRect().top - nav.getBoundingClientRect().top + nav.scrollTop;
      if (top < nav.scrollTop || top > nav.scrollTop + nav.clientHeight - link.offsetHeight)
        nav.scrollTop = top - nav.clientHeight / 2;
    }
  };
  const schedule = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(update);
  };
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  update();
}
