import { randomUUID } from 'node:crypto';

/**
 * The client's file name reduced to its last path segment, without control characters, at most 255
 * characters; 'upload' when nothing is left. Display only: it never names anything on disk.
 * @example cleanOriginalName('../../etc/passwd.png') // 'passwd.png'
 */
export function cleanOriginalName(name: string): string {
  const lastSegment = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = lastSegment.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return 'upload';
  return cleaned.slice(-255);
}

/**
 * A fresh server-made stored name keeping the (supported, lower-case) extension.
 * @example newStoredFilename('.nii.gz') // '5f0c…e1.nii.gz'
 */
export function newStoredFilename(extension: string): string {
  return `${randomUUID()}${extension}`;
}
