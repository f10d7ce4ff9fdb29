// A closed-loop HTTP/1.1 load generator for GET answers framed by Content-Length: `connections` keep-alive
// sockets, each sending its next request as soon as its answer is complete. It exists for the latency tail
// of large answers: a client that allocates a buffer per read (autocannon does, through 'data' events) lets
// those buffers pile up as external memory, and V8 then runs a full collection every ~150 ms at 12,000
// answers/s of 28 KiB; each one stalls the client 4–8 ms, and every answer in flight meanwhile counts the
// stall as the server's latency. Here every socket reads into one buffer of its own (`onread`), an answer
// costs a few small short-lived objects, and latencies go into a fixed histogram.
import net from 'node:net';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  /** Answers per second over the run. */
  rate: number;
  /** Latencies in milliseconds, from writing a request to the last byte of its answer. */
  p50: number;
  p99: number;
  max: number;
  /** Answers that were not 200. A run with any is refused by `httpLoad`, which throws instead. */
  bytes: number;
}

/** Latencies are kept in 10 µs buckets up to 2 s; slower ones land in the last bucket. */
const BUCKET_US = 10;
const BUCKETS = 200_000;
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = Buffer.from('\r\ncontent-length:');

/** Where `\r\ncontent-length:` starts in `head`, matched without regard to case; -1 when absent. */
function contentLengthAt(head: Buffer): number {
  outer: for (let i = 0; i + CONTENT_LENGTH.length <= head.length; i++) {
    for (let j = 0; j < CONTENT_LENGTH.length; j++) {
      if ((head[i + j]! | 0x20) !== (CONTENT_LENGTH[j]! | 0x20)) continue outer;
    }
    return i;
  }
  return -1;
}

/** Status code and body length of a complete header block. */
function parseHead(head: Buffer): { status: number; length: number } {
  const status = Number(head.toString('latin1', 9, 12));
  const at = contentLengthAt(head);
  if (at < 0) throw new Error('http-load: an answer without Content-Length (chunked answers are not measured)');
  const end = head.indexOf('\r\n', at + 2);
  return { status, length: Number(head.toString('latin1', at + CONTENT_LENGTH.length, end).trim()) };
}

function percentile(histogram: Uint32Array, count: number, fraction: number): number {
  const rank = Math.ceil(count * fraction);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return ((i + 1) * BUCKET_US) / 1000;
  }
  return (histogram.length * BUCKET_US) / 1000;
}

/** Runs the load for `seconds` and reports it; throws when any answer was not 200 or a socket failed. */
export function httpLoad({ url, headers, connections, seconds }: LoadOptions): Promise<LoadResult> {
  const target = new URL(url);
  const request = Buffer.from(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      '\r\n',
  );
  const histogram = new Uint32Array(BUCKETS);
  let requests = 0;
  let bytes = 0;
  let maxUs = 0;
  let failure: Error | undefined;
  let running = true;
  const sockets: net.Socket[] = [];

  return new Promise((resolve, reject) => {
    let open = connections;
    const started = performance.now();
    const finish = () => {
      if (--open > 0) return;
      const elapsed = (performance.now() - started) / 1000;
      if (failure) return reject(failure);
      resolve({
        requests,
        rate: requests / elapsed,
        p50: percentile(histogram, requests, 0.5),
        p99: percentile(histogram, requests, 0.99),
        max: maxUs / 1000,
        bytes,
      });
    };
    const fail = (error: Error) => {
      failure ??= error;
      running = false;
      for (const socket of sockets) socket.destroy();
    };

    for (let c = 0; c < connections; c++) {
      // The header block of the answer being read, while it is split across reads (rarely).
      let head = Buffer.alloc(0);
      let bodyLeft = -1;
      let sentAt = 0;
      const send = () => {
        sentAt = performance.now();
        socket.write(request);
      };
      const complete = () => {
        const us = Math.round((performance.now() - sentAt) * 1000);
        histogram[Math.min(Math.floor(us / BUCKET_US), BUCKETS - 1)]!++;
        if (us > maxUs) maxUs = us;
        requests++;
        bodyLeft = -1;
        if (running) send();
        else socket.end();
      };
      const socket = net.connect({
        host: target.hostname,
        port: Number(target.port),
        noDelay: true,
        onread: {
          buffer: Buffer.allocUnsafe(256 * 1024),
          callback(nread: number, buffer: Uint8Array) {
            bytes += nread;
            let at = 0;
            while (at < nread) {
              if (bodyLeft >= 0) {
                const take = Math.min(bodyLeft, nread - at);
                bodyLeft -= take;
                at += take;
                if (bodyLeft === 0) complete();
                continue;
              }
              const chunk = Buffer.from(buffer.buffer, buffer.byteOffset + at, nread - at);
              const joined = head.length ? Buffer.concat([head, chunk]) : chunk;
              const end = joined.indexOf(HEADER_END);
              if (end < 0) {
                head = Buffer.from(joined);
                break;
              }
              let status, length;
              try {
                ({ status, length } = parseHead(joined.subarray(0, end + 2)));
              } catch (error) {
                fail(error as Error);
                return false;
              }
              if (status !== 200) {
                fail(new Error(`http-load: ${url} answered ${status}`));
                return false;
              }
              at += end + HEADER_END.length - head.length;
              head = Buffer.alloc(0);
              bodyLeft = length;
              if (length === 0) complete();
            }
            return true;
          },
        },
      });
      sockets.push(socket);
      socket.on('connect', send);
      socket.on('error', fail);
      socket.on('close', finish);
    }
    setTimeout(() => {
      running = false;
    }, seconds * 1000);
  });
}
