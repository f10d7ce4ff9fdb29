import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpLoad } from '../../../bench/lib/http-load.ts';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(server: net.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/list?x=1`;
}

/** A raw server that answers each request with `answer(n)`, written in the pieces it returns. */
function rawServer(answer: (n: number) => Buffer[]): { server: net.Server; answered: () => number } {
  let answered = 0;
  const server = net.createServer((socket) => {
    let pending = '';
    socket.on('data', async (data) => {
      pending += data.toString('latin1');
      while (pending.includes('\r\n\r\n')) {
        pending = pending.slice(pending.indexOf('\r\n\r\n') + 4);
        const pieces = answer(answered++);
        for (const piece of pieces) {
          socket.write(piece);
          if (pieces.length > 1) await new Promise((r) => setTimeout(r, 2));
        }
      }
    });
    socket.on('error', () => undefined);
  });
  return { server, answered: () => answered };
}

describe('httpLoad', () => {
  it('counts every answer of varied sizes, bodies larger than its read buffer included', async () => {
    const sizes = [0, 1, 28 * 1024, 300 * 1024];
    let finished = 0;
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.url} ${req.headers['accept-encoding']}`);
      const body = Buffer.alloc(sizes[finished % sizes.length]!, 7);
      res.on('finish', () => finished++);
      res.writeHead(200, { 'Content-Length': body.length }).end(body);
    });
    const url = await listen(server);
    const result = await httpLoad({ url, headers: { 'accept-encoding': 'br' }, connections: 4, seconds: 0.5 });
    expect(result.requests).toBeGreaterThan(20);
    expect(result.requests).toBe(finished);
    expect(seen[0]).toBe('/list?x=1 br');
    const bodies = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
    expect(result.bytes / result.requests).toBeGreaterThan(bodies * 0.5);
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.max).toBeGreaterThan(0);
  });

  it('reads a header block split across reads, with Content-Length in any case', async () => {
    const body = Buffer.from('{"ok":true}');
    const { server, answered } = rawServer(() => [
      Buffer.from('HTTP/1.1 200 OK\r\nconTent-LENGTH: '),
      Buffer.from(`${body.length}\r\n`),
      Buffer.from('\r'),
      Buffer.concat([Buffer.from('\n'), body]),
    ]);
    const url = await listen(server);
    const result = await httpLoad({ url, headers: {}, connections: 2, seconds: 0.3 });
    expect(result.requests).toBeGreaterThan(5);
    expect(result.requests).toBe(answered());
  });

  it('refuses a run in which an answer is not 200', async () => {
    const { server } = rawServer((n) => [
      Buffer.from(
        n < 10
          ? 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'
          : 'HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n',
      ),
    ]);
    const url = await listen(server);
    await expect(httpLoad({ url, headers: {}, connections: 2, seconds: 0.3 })).rejects.toThrow(/answered 401/);
  });

  it('refuses an answer it cannot frame', async () => {
    const { server } = rawServer(() => [Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n')]);
    const url = await listen(server);
    await expect(httpLoad({ url, headers: {}, connections: 1, seconds: 0.3 })).rejects.toThrow(
      /without Content-Length/,
    );
  });
});
