import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipVolumeCleaning } from '../../server/modules/uploads/volume-header-stage.ts';
import { niftiBomb } from '../fixtures/decompression-bombs.ts';
import { gzipNifti } from '../fixtures/ingest-attacks.ts';
import { writeNifti } from '../fixtures/nifti-writer.ts';

const MB = 1024 * 1024;

/** Sends `bytes` through the cleaning stages in 64 KiB chunks, as an upload arrives; gives what came out, the time and CPU. */
async function clean(bytes: Uint8Array) {
  const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) =>
    Buffer.from(bytes.subarray(i * 65536, (i + 1) * 65536)),
  );
  const out: Buffer[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  let error: { statusCode?: number; detail?: string } | undefined;
  await pipeline([
    Readable.from(chunks),
    ...gzipVolumeCleaning('nii', 2048 * MB),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  ]).catch((e: unknown) => (error = e as typeof error));
  const used = process.cpuUsage(cpu);
  return { bytes: Buffer.concat(out), ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, error };
}

describe('cleaning a gzip NIfTI on arrival', () => {
  it('stops a 10 MB gzip NIfTI honestly declaring 10 GB at 256 MiB, in seconds of CPU rather than minutes', async () => {
    const attack = gzipNifti(10e6);
    const { error, ms, cpuMs } = await clean(attack.bytes);
    console.info(`10 MB gzip NIfTI: refused after ${Math.round(ms)} ms, ${Math.round(cpuMs)} ms of CPU`);
    expect(error?.statusCode).toBe(422);
    expect(error?.detail).toMatch(/^This NIfTI file expands more than 20-fold \(\d+ KB to 25\d MB\)/);
    // Decompressing all ten gigabytes and compressing them again took a minute of CPU or more.
    expect(cpuMs).toBeLessThan(5000);
  }, 60_000);

  it('stops a gzip NIfTI expanding past what its header declares', async () => {
    const { error, ms } = await clean(niftiBomb());
    expect(error?.statusCode).toBe(422);
    expect(error?.detail).toMatch(/^This NIfTI file decompresses to more than 577 KB, more than it declares/);
    expect(ms).toBeLessThan(2000);
  });

  it('cleans an honest gzip NIfTI: the description cleared, the voxels as sent, gzip again', async () => {
    const values = Array.from({ length: 32 * 32 * 16 }, (_, i) => (i * 37) % 1000);
    const plain = writeNifti({ dims: [32, 32, 16], values, description: 'DOE^JOHN 1970-01-01' });
    const sent = writeNifti({ dims: [32, 32, 16], values, description: 'DOE^JOHN 1970-01-01', gzip: true });
    const { bytes, error } = await clean(sent);
    expect(error).toBeUndefined();
    const back = gunzipSync(bytes);
    expect(back.length).toBe(plain.length);
    expect(back.subarray(148, 228).every((b) => b === 0)).toBe(true);
    expect(Buffer.compare(back.subarray(352), Buffer.from(plain.subarray(352)))).toBe(0);
  });
});
