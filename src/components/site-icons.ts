/** Names of the icons in the site's one set; content files refer to icons by these names. */
export const siteIconNames = [
  'activity',
  'book',
  'clock',
  'cpu',
  'globe',
  'health',
  'laptop',
  'layers',
  'network',
  'scan',
  'shield',
  'target',
  'users',
] as const;

/** One icon name of the site's set. */
export type SiteIconName = (typeof siteIconNames)[number];
