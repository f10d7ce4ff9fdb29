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

/** Where each free-text field of a NIfTI header lies: [offset, length] in NIfTI-1 (348) and NIfTI-2 (540) headers. */
const niftiText = {
  // data_type and db_name are ANALYZE 7.5 leftovers no reader uses; anything may have been written there.
  348: {
    fields: [
      [4, 10],
      [14, 18],
      [148, 80],
      [228, 24],
      [328, 16],
    ],
    extension: 348,
  },
  // intent_name, then unused_str: fifteen bytes the format leaves free.
  540: {
    fields: [
      [240, 80],
      [320, 24],
      [508, 16],
      [525, 15],
    ],
    extension: 540,
  },
} as const;

/**
 * The NIfTI header `head` (every byte up to the voxels) with its free text emptied (`descrip`, `aux_file`,
 * `intent_name`, and NIfTI-1's `data_type` and `db_name` or NIfTI-2's unused bytes) and the extensions removed:
 * the extension flag cleared and their bytes zeroed, so the voxels stay where they are. Anything that is not a
 * NIfTI-1 or NIfTI-2 header is returned unchanged.
 */
export function cleanNiftiHeader(head: Uint8Array): Uint8Array {
  // A copy of its own (a Buffer's slice would be a view into a shared pool).
  const out = new Uint8Array(head.length);
  out.set(head);
  const view = new DataView(out.buffer);
  for (const little of [true, false]) {
    const size = out.length >= 4 ? view.getInt32(0, little) : 0;
    const layout = size === 348 || size === 540 ? niftiText[size] : undefined;
    if (!layout || out.length < layout.extension) continue;
    for (const [offset, length] of layout.fields) out.fill(0, offset, offset + length);
    // Bytes 0-3 after the header: the extension flag (byte 0) and three reserved bytes; then the extensions.
    out.fill(0, layout.extension);
    return out;
  }
  return out;
}

/**
 * NRRD fields that describe the data, by name without spaces (NRRD allows both "space directions" and
 * "spacedirections"): every other field (`content`, `labels`, `units`, `sample units`, ones this list does not
 * know) is free text a person may have typed a name into.
 */
const nrrdDataFields = new Set([
  'type',
  'dimension',
  'space',
  'spacedimension',
  'sizes',
  'spacedirections',
  'spaceorigin',
  'spacings',
  'thicknesses',
  'axismins',
  'axismaxs',
  'centers',
  'centerings',
  'kinds',
  'endian',
  'encoding',
  'lineskip',
  'byteskip',
  'datafile',
  'measurementframe',
  'blocksize',
  'oldmin',
  'oldmax',
  'min',
  'max',
]);

/** Units of the space axes, kept only when each is a plain unit word ("mm", "microns"), not a sentence. */
const plainSpaceUnits = /^\s*("[A-Za-z]{0,12}"\s*)+$/;

/**
 * An NRRD header (the text up to and including its blank line) with only the fields that describe the data:
 * the magic line, the data fields above (and the file names a `data file: LIST` is followed by), `space units`
 * when they are plain units, and the blank line. Comments, `content`, `labels`, `units`, every `key:=value`
 * pair and anything else go.
 */
export function cleanNrrdHeader(header: string): string {
  let fileList = false;
  return header
    .split('\n')
    .filter((line, index) => {
      if (index === 0) return true; // The magic, "NRRD0004".
      if (fileList || line.trim() === '') return true;
      if (line.startsWith('#') || line.includes(':=')) return false;
      const colon = line.indexOf(':');
      if (colon < 0) return false;
      const field = line.slice(0, colon).replace(/\s+/g, '').toLowerCase();
      const value = line.slice(colon + 1);
      if (field === 'spaceunits') return plainSpaceUnits.test(value);
      if (field === 'datafile' && /^\s*LIST\b/.test(value)) fileList = true;
      return nrrdDataFields.has(field);
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
