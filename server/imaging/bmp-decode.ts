import { assertDecodable, UndecodableImageError, type ImageVolume } from './volume.ts';

/**
 * Decodes an uncompressed Windows bitmap (1, 4, 8-bit palette, 24 or 32-bit), which libvips cannot read.
 * Greyscale palettes give one channel, anything else RGB.
 */
export function decodeBmp(bytes: Uint8Array): ImageVolume {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 54) throw new UndecodableImageError('This BMP file is too short.');
  const offset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  const width = view.getInt32(18, true);
  const rawHeight = view.getInt32(22, true);
  const bits = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  if (compression !== 0 && !(compression === 3 && bits === 32))
    throw new UndecodableImageError(`Compressed BMP (method ${compression}) is not supported.`);
  if (![1, 4, 8, 24, 32].includes(bits) || width <= 0 || rawHeight === 0)
    throw new UndecodableImageError(`BMP with ${bits} bits per pixel is not supported.`);
  const height = Math.abs(rawHeight);
  // A palette holds at most 2^bits colours whatever the header claims (a hostile one claims billions).
  const colours = bits <= 8 ? Math.min(view.getUint32(46, true) || 2 ** bits, 2 ** bits) : 0;
  const palette = Array.from({ length: colours }, (_, i) => {
    const at = 14 + headerSize + i * 4;
    return [bytes[at + 2]!, bytes[at + 1]!, bytes[at]!] as const;
  });
  const grey = bits <= 8 && palette.every(([r, g, b]) => r === g && g === b);
  const channels = grey ? 1 : 3;
  assertDecodable(width * height * channels);
  const rowSize = Math.ceil((width * bits) / 32) * 4;
  if (offset + rowSize * height > bytes.length)
    throw new UndecodableImageError('The BMP pixel data is shorter than its header says.');
  const data = new Float32Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    // Positive heights are stored bottom-up.
    const row = offset + (rawHeight > 0 ? height - 1 - y : y) * rowSize;
    for (let x = 0; x < width; x++) {
      let rgb: readonly [number, number, number];
      if (bits <= 8) {
        const bit = x * bits;
        const index = (bytes[row + (bit >> 3)]! >> (8 - bits - (bit & 7))) & (2 ** bits - 1);
        rgb = palette[index] ?? [0, 0, 0];
      } else {
        const at = row + x * (bits / 8);
        rgb = [bytes[at + 2]!, bytes[at + 1]!, bytes[at]!];
      }
      const o = (y * width + x) * channels;
      if (grey) data[o] = rgb[0];
      else data.set(rgb, o);
    }
  }
  return {
    format: 'bmp',
    width,
    height,
    depth: 1,
    channels,
    data,
    spacing: [1, 1, 1],
    bitDepth: Math.min(bits, 8) === 8 ? 8 : bits,
    storedRange: [0, 255],
    photometric: channels === 3 ? 'RGB' : 'MONOCHROME2',
    invert: false,
  };
}
