import { describe, expect, it } from 'vitest';
import { createPreviewCache } from '../../../server/modules/previews/preview-cache.ts';

describe('preview cache', () => {
  it('drops the least recently used previews past its byte budget', () => {
    const cache = createPreviewCache(300);
    cache.set('a.dcm', 'axial', 0, Buffer.alloc(100), 1);
    cache.set('b.dcm', 'axial', 0, Buffer.alloc(100), 1);
    cache.set('c.dcm', 'axial', 0, Buffer.alloc(100), 1);
    expect(cache.get('a.dcm', 'axial', 0)).toBeDefined();
    cache.set('d.dcm', 'axial', 0, Buffer.alloc(100), 1);
    expect(cache.get('b.dcm', 'axial', 0)).toBeUndefined();
    expect(cache.get('a.dcm', 'axial', 0)).toBeDefined();
    expect(cache.get('d.dcm', 'axial', 0)).toBeDefined();
  });

  it("forgets one upload's previews and slice counts, and only that upload's", () => {
    const cache = createPreviewCache();
    cache.set('a.nii.gz', 'axial', 3, Buffer.alloc(10), 12);
    cache.set('a.nii.gz', 'sagittal', 5, Buffer.alloc(10), 48);
    cache.set('ab.nii.gz', 'axial', 3, Buffer.alloc(10), 12);
    cache.forget('a.nii.gz');
    expect(cache.get('a.nii.gz', 'axial', 3)).toBeUndefined();
    expect(cache.sliceCount('a.nii.gz', 'sagittal')).toBeUndefined();
    expect(cache.get('ab.nii.gz', 'axial', 3)).toBeDefined();
    expect(cache.sliceCount('ab.nii.gz', 'axial')).toBe(12);
  });
});
