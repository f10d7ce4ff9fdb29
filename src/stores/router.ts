import { createRouter } from '@nanostores/router';
import { reportPageView } from '../lib/page-view.ts';

/** The dashboard's routes; every one is also pre-rendered as its own page. */
export const $router = createRouter({
  overview: '/dashboard',
  images: '/dashboard/images',
  analysis: '/dashboard/analysis',
  modelViewer: '/dashboard/model-viewer',
  settings: '/dashboard/settings',
  profile: '/dashboard/profile',
  workspace: '/dashboard/workspace',
  review: '/dashboard/review',
  audit: '/dashboard/audit',
});

/** A route name of the dashboard. */
export type DashboardRoute = NonNullable<ReturnType<typeof $router.get>>['route'];

/** The header's links, in order. */
export const dashboardLinks: { route: DashboardRoute; href: string; label: string }[] = [
  { route: 'overview', href: '/dashboard', label: 'Overview' },
  { route: 'images', href: '/dashboard/images', label: 'My Images' },
  { route: 'analysis', href: '/dashboard/analysis', label: 'Analysis' },
  { route: 'modelViewer', href: '/dashboard/model-viewer', label: '3D Models' },
  { route: 'settings', href: '/dashboard/settings', label: 'Settings' },
];

/** Reports a page view for the current path and again on every route change; returns the unsubscribe. */
export function trackDashboardPageViews(): () => void {
  let last: string | undefined;
  return $router.subscribe(() => {
    const path = window.location.pathname;
    if (path === last) return;
    last = path;
    reportPageView(path);
  });
}

/** Opens a dashboard path inside the app, keeping browser history. */
export function goTo(path: string): void {
  $router.open(path);
}
