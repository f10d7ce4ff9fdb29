import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { writeDicomFile } from '../fixtures/dicom-writer.ts';
import { multipartBody } from '../fixtures/multipart-body.ts';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import type { TestApp } from './helpers/test-app.ts';
import type { TestUser } from './helpers/users.ts';

export { multipartBody, type Part } from '../fixtures/multipart-body.ts';

/** A real grey PNG, 8×8 unless told (the quality check measures images of 32×32 and more). */
export async function pngBytes(size = 8): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: 120, g: 120, b: 120 } } })
    .png()
    .toBuffer();
}

/** A minimal NIfTI-1 header (magic "n+1\0" at 344) followed by a few voxels. */
export function niftiBytes(): Buffer {
  const header = Buffer.alloc(352);
  header.writeInt32LE(348, 0);
  header.write('n+1\0', 344, 'latin1');
  return Buffer.concat([header, Buffer.alloc(64, 7)]);
}

/** A gzip-compressed NIfTI-1 file, as .nii.gz. */
export function niftiGzBytes(): Buffer {
  return gzipSync(niftiBytes());
}

/** A small valid Part-10 DICOM file (preamble, "DICM", file meta, a patient name): uploads de-identify it on arrival. */
export function dicomBytes(): Buffer {
  return Buffer.from(
    writeDicomFile({ syntax: 'explicit-le', elements: [{ tag: '00100010', vr: 'PN', value: 'TEST^PATIENT' }] }),
  );
}

/** The first bytes of a Windows executable. */
export function executableBytes(): Buffer {
  return Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(400, 0)]);
}

/** POSTs one file to /uploads as `user`. */
export async function uploadFile(t: TestApp, user: TestUser, filename: string, content: Buffer, workspaceId?: string) {
  const body = multipartBody([{ field: 'file', filename, content }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...user.auth, ...body.headers, ...(workspaceId && { [WORKSPACE_HEADER]: workspaceId }) },
    payload: body.payload,
  });
}
