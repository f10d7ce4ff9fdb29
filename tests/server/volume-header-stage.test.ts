import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { volumeHeaderCleaner } from '../../server/modules/uploads/volume-header-stage.ts';
import { niftiWithHugeVoxOffset, nrrdHeaderWithoutBlankLine } from '../fixtures/ingest-attacks.ts';

/** Streams `bytes` through the header stage in 64 KiB chunks, as a socket delivers an upload; answers what came out. */
async function throughStage(format: 'nii' | 'nrrd', bytes: Uint8Array) {
  const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) =>
    Buffer.from(bytes.subarray(i * 65536, (i + 1) * 65536)),
  );
  const out: Buffer[] = [];
  const started = performance.now();
  let error: unknown;
  await pipeline(Readable.from(chunks), volumeHeaderCleaner(format), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  }).catch((e: unknown) => (error = e));
  return {
    bytes: Buffer.concat(out),
    ms: performance.now() - started,
    error: error as { statusCode?: number; detail?: string },
  };
}

describe('the header stage of NIfTI and NRRD uploads', () => {
  it('refuses a 16 MB NRRD header without a blank line with 422 at 1 MiB, in linear time', async () => {
    const { error, ms } = await throughStage('nrrd', nrrdHeaderWithoutBlankLine(16 * 1024 * 1024).bytes);
    console.info(`endless NRRD header refused in ${Math.round(ms)} ms`);
    expect(error?.statusCode).toBe(422);
    expect(error?.detail).toBe('The header of this file is too large to be cleaned of free text.');
    // Rescanning every chunk took seconds here; once over the bytes, milliseconds.
    expect(ms).toBeLessThan(500);
  });

  it('passes a NIfTI whose voxels start 15 MB in, with its voxels intact, in linear time', async () => {
    const sent = niftiWithHugeVoxOffset(15 * 1024 * 1024).bytes;
    const { bytes, ms, error } = await throughStage('nii', sent);
    console.info(`far NIfTI vox_offset passed in ${Math.round(ms)} ms`);
    expect(error).toBeUndefined();
    expect(bytes.length).toBe(sent.length);
    expect([...bytes.subarray(sent.length - 64)]).toEqual(Array(64).fill(7));
    expect(ms).toBeLessThan(500);
  });

  it('refuses a NIfTI whose voxels start past 16 MiB with 422', async () => {
    const { error } = await throughStage('nii', niftiWithHugeVoxOffset(17 * 1024 * 1024).bytes);
    expect(error?.statusCode).toBe(422);
  });

  it('finds an NRRD header whose blank line falls across two chunks, and clears its comments', async () => {
    const fields = 'NRRD0004\ntype: uint8\ndimension: 3\nsizes: 4 4 4\nencoding: raw\n';
    const comment = `# DOE^JOHN ${'x'.repeat(65536 - fields.length - 12)}\n`;
    const sent = new TextEncoder().encode(`${fields}${comment}\n${'\u0007'.repeat(64)}`);
    expect(sent[65535]).toBe(0x0a); // the first line break of the blank line ends the first chunk
    const { bytes, error } = await throughStage('nrrd', sent);
    expect(error).toBeUndefined();
    expect(bytes.toString('latin1')).toBe(`${fields}\n${'\u0007'.repeat(64)}`);
  });
});
