/** Where a rendered preview is cached in the object store. */
export function previewStorageKey(storedFilename: string, axis: string, slice: number): string {
  return `previews/${storedFilename}/${axis}-${slice}.png`;
}
