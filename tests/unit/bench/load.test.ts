import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpLoad, percentile } from '../../../bench/lib/load.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('httpLoad', () => {
  it('measures chunked answers, as a compressed or streamed list is sent', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[1,');
      setTimeout(() => res.end('2]'), 1);
    });
    const result = await httpLoad({ url, connections: 4, seconds: 1 });
    expect(result.requests).toBeGreaterThan(10);
    expect(result.p50).toBeGreaterThanOrEqual(1);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.max).toBeGreaterThanOrEqual(result.p99);
    expect(result.latencies).toHaveLength(result.requests);
  });

  it('refuses a run with an answer that is not 2xx', async () => {
    let n = 0;
    const url = await listen((_req, res) => res.writeHead(n++ === 5 ? 500 : 200).end('{}'));
    await expect(httpLoad({ url, connections: 2, seconds: 1 })).rejects.toThrow(/1 answers not 2xx/);
  });

  it('gives each connection its own body and sends exactly `amount` requests', async () => {
    const bodies: string[] = [];
    const url = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.end('{}');
      });
    });
    await httpLoad({
      url,
      method: 'POST',
      connections: 3,
      amount: 3,
      setupConnection: (client, index) => client.setBody(`user-${index}`),
    });
    expect(bodies.sort()).toEqual(['user-0', 'user-1', 'user-2']);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile([7], 0.99)).toBe(7);
  });
});
