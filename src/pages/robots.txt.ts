import type { APIRoute } from 'astro';

/** robots.txt with an absolute sitemap address built from the site origin (PUBLIC_SITE_URL). */
export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap-index.xml', site).href;
  const body = [
    'User-agent: *',
    'Allow: /',
    // Signed-in screens and one-time links have nothing to index.
    'Disallow: /dashboard',
    'Disallow: /verify-email',
    'Disallow: /reset-password',
    '',
    `Sitemap: ${sitemap}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
