/** Bytes of a NIfTI or NRRD file's start that hold every free-text field read by volumeIdentifyingText. */
export const VOLUME_TEXT_HEAD_BYTES = 64 * 1024;

const latin1 = (bytes: Uint8Array, at: number, length: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .subarray(at, at + length)
    .toString('latin1')
    .replace(/\0.*$/s, '')
    .trim();

function niftiText(head: Uint8Array): string[] {
  if (head.length < 348) return [];
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const size = [view.getInt32(0, true), view.getInt32(0, false)];
  // NIfTI-1: db_name, descrip, aux_file, intent_name; NIfTI-2 has no db_name and its fields further on.
  if (size.includes(348)) {
    return [latin1(head, 4, 18), latin1(head, 148, 80), latin1(head, 228, 24), latin1(head, 328, 16)];
  }
  if (size.includes(540) && head.length >= 540) {
    return [latin1(head, 240, 80), latin1(head, 320, 24), latin1(head, 508, 16)];
  }
  return [];
}

function nrrdText(head: Uint8Array): string[] {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const header = end < 0 ? text : text.slice(0, end);
  const values: string[] = [];
  for (const line of header.split(/\r?\n/).slice(1)) {
    if (line.startsWith('#')) values.push(line.slice(1).trim());
    else if (line.includes(':=')) values.push(line.slice(line.indexOf(':=') + 2).trim());
    else {
      const field = /^(content|labels|units|space units)\s*:\s*(.*)$/i.exec(line);
      if (field) values.push(field[2]!.replace(/"/g, ' ').trim());
    }
  }
  return values;
}

/**
 * The free text of a NIfTI header (descrip, aux_file, intent_name, db_name) or an NRRD header (comments,
 * content, labels, units, key:=value pairs): where a volume says who or what it is. `head` is the file's start
 * (decompressed), VOLUME_TEXT_HEAD_BYTES at most is read.
 * @example volumeIdentifyingText(niftiWithDescrip('DOE^JOHN'), 'nii') // ['DOE^JOHN']
 */
export function volumeIdentifyingText(head: Uint8Array, format: 'nii' | 'nrrd'): string[] {
  const values = format === 'nii' ? niftiText(head) : nrrdText(head.subarray(0, VOLUME_TEXT_HEAD_BYTES));
  return values.filter(Boolean);
}
