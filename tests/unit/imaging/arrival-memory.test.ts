import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { stripRasterMetadata } from '../../../server/imaging/strip-raster-metadata.ts';
import { createMemoryBudget } from '../../../server/modules/ingest/memory-budget.ts';
import { deidentifiedUpload, metadataStripper } from '../../../server/modules/ingest/prepare-on-arrival.ts';
import { fileTypeOf } from '../../../server/modules/ingest/file-types.ts';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const salt = async () => 'workspace-salt';
const budget = (bytes: number) => createMemoryBudget(bytes);
const limits = { budget: budget(1e6), pictureHold: 1e6, dicomHold: 1e6 };
const dicom = fileTypeOf('slice.dcm')!;
// Every upload below is refused before it would be cleaned and stored.
const neverStored = () => Promise.reject(new Error('stored a refused upload'));

async function collect(stream: NodeJS.ReadableStream & { pipe: unknown }, chunks: Buffer[]) {
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), stream as never, async (source: AsyncIterable<Buffer>) => {
    for await (const c of source) out.push(c);
  });
  return Buffer.concat(out);
}

describe('cleaning uploads on arrival within bounded memory', () => {
  it('keeps a PNG whose chunks are not PNG structure whole, without walking it byte by byte', () => {
    const bytes = new Uint8Array(8 + 40 * 1024 * 1024);
    bytes.set(pngSignature);
    const started = performance.now();
    const out = stripRasterMetadata(bytes, 'png');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out?.length).toBe(bytes.length);
  });

  it('drops whatever trails the IEND chunk of a PNG', () => {
    const iend = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
    const hidden = [...Buffer.from('Patient Jane Doe')];
    const out = stripRasterMetadata(Uint8Array.from([...pngSignature, ...iend, ...hidden]), 'png');
    expect(Buffer.from(out!).toString('latin1')).not.toContain('Jane');
  });

  it('stores a picture larger than the hold limit as sent instead of holding it', async () => {
    const chunks = [Buffer.from(pngSignature), Buffer.alloc(3000), Buffer.alloc(3000)];
    const out = await collect(metadataStripper('png', { ...limits, budget: budget(1e6), pictureHold: 4000 }), chunks);
    expect(out.length).toBe(6008);
  });

  it('refuses with 503 once uploads being cleaned together would pass the memory budget', async () => {
    const shared = { ...limits, budget: budget(5000), pictureHold: 1e6 };
    const holding = metadataStripper('png', shared);
    holding.write(Buffer.alloc(4000));
    const second = collect(metadataStripper('png', shared), [Buffer.alloc(2000)]);
    await expect(second).rejects.toMatchObject({ statusCode: 503 });
    holding.destroy();
    const after = await collect(metadataStripper('png', shared), [Buffer.from(pngSignature), Buffer.alloc(2000)]);
    expect(after.length).toBe(2008);
  });

  it('refuses a DICOM file larger than the hold limit with 413, and one the budget cannot hold with 503', async () => {
    const preamble = Buffer.alloc(132);
    preamble.write('DICM', 128, 'latin1');
    const tooLarge = deidentifiedUpload(Readable.from([preamble, Buffer.alloc(4000)]), dicom, salt, neverStored, {
      ...limits,
      dicomHold: 4000,
    });
    await expect(tooLarge).rejects.toMatchObject({ statusCode: 413 });
    const shared = { ...limits, budget: budget(5000) };
    const holding = metadataStripper('png', shared);
    holding.write(Buffer.alloc(4000));
    const busy = deidentifiedUpload(Readable.from([preamble, Buffer.alloc(2000)]), dicom, salt, neverStored, shared);
    await expect(busy).rejects.toMatchObject({ statusCode: 503 });
    holding.destroy();
  });

  it('judges a DICOM upload by its first bytes before holding the rest', async () => {
    let pulled = 0;
    async function* notDicom() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield Buffer.alloc(1000, 0x41);
      }
    }
    const refused = deidentifiedUpload(Readable.from(notDicom()), dicom, salt, neverStored, limits);
    await expect(refused).rejects.toMatchObject({ statusCode: 415 });
    expect(pulled).toBeLessThan(5);
  });
});
