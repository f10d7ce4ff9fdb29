import type { APIRoute } from 'astro';
import sharp from 'sharp';
import { socialPreview } from '../lib/social-preview.ts';
import { site } from '../site.ts';

/** Escapes text for an SVG text node. */
const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The link-preview image, drawn at build time from the brand (so it never disagrees with the site) and
 * rasterised to PNG, the one format every preview service reads.
 */
export const GET: APIRoute = async () => {
  const { width, height } = socialPreview;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b4f6c"/><stop offset="1" stop-color="#0d2633"/></linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#g)"/>
  <g transform="translate(80 80)">
    <rect width="96" height="96" rx="21" fill="#ffffff"/>
    <circle cx="48" cy="48" r="24" fill="none" stroke="#0b4f6c" stroke-width="9"/>
    <circle cx="48" cy="48" r="7.5" fill="#0f7d6b"/>
    <text x="124" y="66" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="52" font-weight="700" fill="#ffffff">${xml(site.name)}</text>
  </g>
  <text x="80" y="290" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="60" font-weight="700" fill="#ffffff">Trustworthy medical images,</text>
  <text x="80" y="362" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="60" font-weight="700" fill="#ffffff">checked before anyone relies on them</text>
  <text x="80" y="430" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="34" fill="#b9e4f5">Upload · de-identify · check · discuss</text>
  <text x="80" y="476" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="34" fill="#b9e4f5">MRI, CT, PET, X-ray, ultrasound and histology</text>
  <g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="30" font-weight="700">
    <rect x="80" y="526" width="132" height="52" rx="26" fill="#0b6b3a"/><text x="146" y="562" text-anchor="middle" fill="#ffffff">Pass</text>
    <rect x="228" y="526" width="160" height="52" rx="26" fill="#8a5a00"/><text x="308" y="562" text-anchor="middle" fill="#ffffff">Review</text>
    <rect x="404" y="526" width="124" height="52" rx="26" fill="#a4161a"/><text x="466" y="562" text-anchor="middle" fill="#ffffff">Fail</text>
  </g>
</svg>`;
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
