// Free text in NIfTI and NRRD headers (descriptions, auxiliary file names, extensions, comments) often
// carries names, dates and accession numbers. These clear it and keep everything a reader needs.

/** Where the header of a NIfTI file ends and its voxels begin, once enough bytes are there to tell; else undefined. */
export function niftiDataOffset(head: Uint8Array): number | undefined {
  if (head.length < 4) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  for (const little of [true, false]) {
    const size = view.getInt32(0, little);
    if (size === 348 && head.length >= 352) return Math.max(352, Math.floor(view.getFloat32(108, little)));
    if (size === 540 && head.length >= 544) return Math.max(544, Number(view.getBigInt64(168, little)));
  }
  // Not a NIfTI header: nothing to clean, once more bytes than any header are there.
  return head.length >= 544 ? 544 : undefined;
}

/**
 * The NIfTI header `head` (every byte up to the voxels) with `descrip` and `aux_file` emptied and the
 * extensions removed: the extension flag cleared and their bytes zeroed, so the voxels stay where they are.
 * Anything that is not a NIfTI-1 or NIfTI-2 header is returned unchanged.
 */
export function cleanNiftiHeader(head: Uint8Array): Uint8Array {
  // A copy of its own (a Buffer's slice would be a view into a shared pool).
  const out = new Uint8Array(head.length);
  out.set(head);
  const view = new DataView(out.buffer);
  for (const little of [true, false]) {
    const size = out.length >= 4 ? view.getInt32(0, little) : 0;
    const layout =
      size === 348
        ? { descrip: 148, aux: 228, extension: 348 }
        : size === 540
          ? { descrip: 240, aux: 320, extension: 540 }
          : undefined;
    if (!layout || out.length < layout.extension) continue;
    out.fill(0, layout.descrip, layout.descrip + 80);
    out.fill(0, layout.aux, layout.aux + 24);
    // Bytes 0-3 after the header: the extension flag (byte 0) and three reserved bytes; then the extensions.
    out.fill(0, layout.extension);
    return out;
  }
  return out;
}

/**
 * An NRRD header (the text up to and including its blank line) without its free text: comment lines,
 * `content`, and every `key:=value` pair; the fields that describe the data are kept.
 */
export function cleanNrrdHeader(header: string): string {
  return header
    .split('\n')
    .filter((line, index) => {
      if (index === 0) return true; // The magic, "NRRD0004".
      if (line.startsWith('#')) return false;
      if (line.includes(':=')) return false;
      return !/^content\s*:/i.test(line);
    })
    .join('\n');
}

/** Where the header of an NRRD file ends (after its blank line), once the bytes hold it; else undefined. */
export function nrrdHeaderEnd(head: Uint8Array): number | undefined {
  for (let i = 0; i + 1 < head.length; i++) {
    if (head[i] === 0x0a && head[i + 1] === 0x0a) return i + 2;
    if (head[i] === 0x0a && head[i + 1] === 0x0d && head[i + 2] === 0x0a) return i + 3;
  }
  return undefined;
}
