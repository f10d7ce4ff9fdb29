/** The image link previews show for every page (Open Graph, 1200 × 630 as the large-card format asks). */
export const socialPreview = {
  path: '/social-preview.png',
  width: 1200,
  height: 630,
  alt: 'LumenQC: trustworthy medical images, checked before anyone relies on them, with Pass, Review and Fail verdicts.',
} as const;
