import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBudget } from '../../server/modules/ingest/memory-budget.ts';
import { cleaningLimits } from '../../server/modules/ingest/prepare-on-arrival.ts';
import { receiveSingleFile } from '../../server/modules/ingest/single-file.ts';
import { fromMultipart } from '../../server/modules/uploads/multipart-source.ts';
import { createDiskStorage } from '../../server/storage/disk-storage.ts';

// The multipart door and the single-file reception on a real listening server, with a short idle limit, so a stalled client can be played.
describe('an upload whose client stops sending', () => {
  let app: FastifyInstance;
  let root: string;
  let port: number;
  const outcomes: string[] = [];
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'imageqc-stall-'));
    const storage = createDiskStorage(root);
    app = Fastify();
    await app.register(multipart, { limits: { fileSize: 1024 ** 3 } });
    app.post('/u', async (request) => {
      try {
        const context = {
          storage,
          limit: 1024 ** 3,
          keepOriginal: false,
          uidSalt: async () => 'salt',
          cleaning: cleaningLimits(createMemoryBudget(1024 ** 3)),
        };
        const file = await fromMultipart(request, 'file', 1024 ** 3, (s) => receiveSingleFile(s.files, context), 300);
        outcomes.push(`stored ${file.size}`);
        return { size: file.size };
      } catch (error) {
        outcomes.push(`failed: ${(error as Error).message}`);
        throw error;
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('is cut off after the idle limit and leaves no partial file', async () => {
    const boundary = 'b0undary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
    });
    socket.write(
      `POST /u HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: 1000000\r\n\r\n${head}`,
    );
    socket.write(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000)]));
    const elapsed = await closed;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000);
    await expect.poll(() => outcomes.length).toBe(1);
    expect(outcomes[0]).toMatch(/^failed/);
    expect(await readdir(path.join(root, '.tmp')).catch(() => [])).toEqual([]);
  });

  it('still takes an upload that keeps sending for longer than the idle limit', async () => {
    const boundary = 'b0undary';
    const body = Buffer.alloc(6000, 1);
    body.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="steady.png"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.write(
      `POST /u HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + body.length + tail.length}\r\n\r\n`,
    );
    socket.write(head);
    // Six slices 150 ms apart: 900 ms in all, three times the idle limit, never idle for long.
    for (let i = 0; i < 6; i++) {
      socket.write(body.subarray(i * 1000, (i + 1) * 1000));
      await new Promise((r) => setTimeout(r, 150));
    }
    socket.write(tail);
    await new Promise((resolve) => socket.on('close', resolve));
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('"size":6000');
  });

  it('answers a mislabelled file with its 415 detail once the rest of the body has arrived', async () => {
    const boundary = 'b0undary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\n\r\n`,
    );
    const body = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(3 * 1024 * 1024, 1)]);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.write(
      `POST /u HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + body.length + tail.length}\r\n\r\n`,
    );
    socket.write(head);
    // Sent in slices: the refusal comes after the first bytes, but the answer only once all has arrived.
    for (let at = 0; at < body.length; at += 512 * 1024) {
      socket.write(body.subarray(at, at + 512 * 1024));
      await new Promise((r) => setTimeout(r, 20));
      if (at === 0) expect(answer).toBe('');
    }
    socket.write(tail);
    await expect.poll(() => answer, { timeout: 5_000 }).toMatch(/^HTTP\/1.1 415/);
    expect(answer).toContain('does not match its .png extension');
    expect(answer.toLowerCase()).not.toContain('connection: close');
    socket.destroy();
  });
});
