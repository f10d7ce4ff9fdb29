import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

function chunk(type: string, body: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  out.set(body, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

/**
 * Encodes 8-bit greyscale or RGB pixels as PNG with fast deflate and the Up filter: several times
 * quicker than a general image pipeline for the preview case, where nothing needs resizing. Deflate,
 * most of the cost, runs on libuv's thread pool, leaving the event loop free for other requests.
 */
export async function encodePng(pixels: Uint8Array, width: number, height: number, channels: 1 | 3): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = channels === 3 ? 2 : 0;
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    // Filter 2 (Up): medical images change slowly from row to row, so differences deflate well.
    raw[row] = y === 0 ? 0 : 2;
    const from = y * stride;
    if (y === 0) raw.set(pixels.subarray(from, from + stride), row + 1);
    else for (let x = 0; x < stride; x++) raw[row + 1 + x] = (pixels[from + x]! - pixels[from - stride + x]!) & 255;
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', await deflateAsync(raw, { level: 1 })),
    chunk('IEND', new Uint8Array()),
  ]);
}
