import { describe, expect, it } from 'vitest';
import { filterImages } from '../../../src/lib/image-search.ts';
import { formatMegabytes } from '../../../src/lib/megabytes.ts';
import { isPreviewable } from '../../../src/lib/preview-types.ts';
import { relativeAge } from '../../../src/lib/relative-age.ts';

describe('relativeAge', () => {
  const now = 2_000_000_000_000;
  const ago = (seconds: number) => relativeAge(now / 1000 - seconds, now);
  it('uses the largest whole unit of s, m, h, d, w, mo, y', () => {
    expect(ago(0)).toBe('0s ago');
    expect(ago(59)).toBe('59s ago');
    expect(ago(60)).toBe('1m ago');
    expect(ago(3599)).toBe('59m ago');
    expect(ago(3600)).toBe('1h ago');
    expect(ago(86_400 * 2)).toBe('2d ago');
    expect(ago(86_400 * 7)).toBe('1w ago');
    expect(ago(86_400 * 30)).toBe('1mo ago');
    expect(ago(86_400 * 365 * 3)).toBe('3y ago');
  });
  it('shows a moment in the future (clock skew) as 0s', () => {
    expect(ago(-30)).toBe('0s ago');
  });
});

describe('formatMegabytes', () => {
  it('divides by 1024 twice and keeps two decimals', () => {
    expect(formatMegabytes(0)).toBe('0.00 MB');
    expect(formatMegabytes(1_572_864)).toBe('1.50 MB');
    expect(formatMegabytes(1000)).toBe('0.00 MB');
    expect(formatMegabytes(10_485)).toBe('0.01 MB');
  });
});

describe('filterImages', () => {
  const items = [
    { original_name_guess: 'Left KNEE.png', stored_filename: 'a.png' },
    { original_name_guess: '', stored_filename: 'b-knee.dcm' },
    { original_name_guess: 'brain.nii.gz', stored_filename: 'c.nii.gz' },
  ];
  it('matches the original name case-insensitively, else the stored name', () => {
    expect(filterImages(items, 'knee').map((i) => i.stored_filename)).toEqual(['a.png', 'b-knee.dcm']);
    expect(filterImages(items, 'BRAIN')).toHaveLength(1);
    expect(filterImages(items, 'c.nii')).toEqual([]);
  });
  it('keeps everything for a blank query', () => {
    expect(filterImages(items, '  ')).toHaveLength(3);
  });
});

describe('isPreviewable', () => {
  it('accepts the preview extensions of SPEC §5 only', () => {
    for (const ext of ['.jpg', '.JPEG', 'png', '.gif', '.bmp', '.webp', '.tif', '.tiff'])
      expect(isPreviewable(ext)).toBe(true);
    for (const ext of ['.dcm', '.nii', '.nii.gz', '.nrrd']) expect(isPreviewable(ext)).toBe(false);
  });
});
