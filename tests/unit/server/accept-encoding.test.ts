import { describe, expect, it } from 'vitest';
import { preferredEncoding } from '../../../server/accept-encoding.ts';

describe('preferredEncoding', () => {
  it('picks brotli from what browsers send, and gzip when brotli is not offered', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('GZIP')).toBe('gzip');
  });

  it('follows the weights, this server breaking ties', () => {
    expect(preferredEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(preferredEncoding('gzip;q=0.8, br;q=0.8')).toBe('br');
  });

  it('sends the bytes as they are when nothing it makes is accepted', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('')).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('deflate, zstd')).toBeUndefined();
    expect(preferredEncoding('br;q=0, gzip;q=0')).toBeUndefined();
  });

  it('lets * allow both, except a coding refused by name', () => {
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('br;q=0, *')).toBe('gzip');
    expect(preferredEncoding('*;q=0')).toBeUndefined();
  });
});
