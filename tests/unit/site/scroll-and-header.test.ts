import { describe, expect, it } from 'vitest';
import { HASH_SCROLL_DELAY_MS, HASH_SCROLL_OFFSET_PX, scrollTargetTop } from '../../../src/components/hash-scroll.ts';
import { HEADER_SHRINK_PX, isCompact } from '../../../src/components/site-header.ts';
import { applyHref } from '../../../src/components/job-list.ts';
import { siteUrl } from '../../../src/islands/guide/guide-search.ts';

describe('constants of SPEC §9', () => {
  it('scrolls to a hash after 100 ms, 120 px below the top, and shrinks the header past 50 px', () => {
    expect([HASH_SCROLL_DELAY_MS, HASH_SCROLL_OFFSET_PX, HEADER_SHRINK_PX]).toEqual([100, 120, 50]);
  });
});

describe('scrollTargetTop', () => {
  it('leaves 120 px above the element', () => expect(scrollTargetTop(900, 300)).toBe(1080));
  it('never scrolls above the top of the page', () => expect(scrollTargetTop(40, 0)).toBe(0));
});

describe('isCompact', () => {
  it('stays tall up to 50 px and shrinks beyond', () => {
    expect([isCompact(0), isCompact(50), isCompact(51)]).toEqual([false, false, true]);
  });
});

describe('applyHref', () => {
  it('puts the job title, encoded, in the subject', () => {
    expect(applyHref('jobs@x.eu', 'R&D Engineer')).toBe('mailto:jobs@x.eu?subject=Application%3A%20R%26D%20Engineer');
  });
});

describe('siteUrl', () => {
  it('drops the .html of built files and keeps the hash', () => {
    expect(siteUrl('/user-guide.html#glossary')).toBe('/user-guide#glossary');
    expect(siteUrl('/user-guide.html')).toBe('/user-guide');
    expect(siteUrl('/user-guide#a.html-b')).toBe('/user-guide#a.html-b');
  });
});
