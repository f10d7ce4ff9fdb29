// The client of benchmarks that script their requests one by one (upload a file, then fetch what it
// answered): undici's request() on kept-alive connections. fetch() spent 3.3 ms of CPU per 128 KiB upload
// (WHATWG streams around every body), as much as a server storing it; undici's request() skips those
// streams, so on a machine whose cores the client shares with the servers it takes little from either.
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';

/** A status, the headers and the whole body of an answer (as sent: compressed bodies stay compressed). */
export interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** Kept-alive connections to any origin, at most `connections` to each. */
export function benchAgent(connections: number): Agent {
  return new Agent({ connections, headersTimeout: 600_000, bodyTimeout: 600_000 });
}

/** Sends one request through `agent` and reads its whole answer. */
export async function send(
  agent: Agent,
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
  }: {
    method?: 'GET' | 'POST' | 'DELETE';
    headers?: Record<string, string>;
    body?: Uint8Array | string | Readable;
  } = {},
): Promise<Answer> {
  const answer = await request(url, { method, headers, body, dispatcher: agent });
  const answerHeaders: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: answer.statusCode, headers: answerHeaders, body: Buffer.from(await answer.body.arrayBuffer()) };
}

/** The answer when it is 2xx; otherwise an error naming `what` with the status and body. */
export function expectOk(answer: Answer, what: string): Answer {
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${what}: HTTP ${answer.status} ${answer.body.toString('utf8', 0, 500)}`);
  }
  return answer;
}
