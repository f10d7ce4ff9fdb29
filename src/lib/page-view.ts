import { apiBase } from './api-base.ts';

/** Reports one page view (path and referrer only) unless analytics is off or Do Not Track is set. */
export function reportPageView(path: string, referrer: string = document.referrer): void {
  if (import.meta.env.PUBLIC_ANALYTICS === 'off') return;
  if (navigator.doNotTrack === '1') return;
  const body = JSON.stringify({ path, referrer: referrer || null });
  navigator.sendBeacon?.(`${apiBase}/analytics/page-views`, new Blob([body], { type: 'application/json' }));
}
