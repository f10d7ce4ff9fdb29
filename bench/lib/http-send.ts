// One HTTP request over node:http with a keep-alive agent: the client of benchmarks that send many
// requests and compare the servers answering them. fetch() spent 3.3 ms of CPU per 128 KiB upload
// (WHATWG streams around every body), as much as the server storing it: on a machine of two cores that
// share client and server, the client then took CPU from whichever server needed more. node:http spends
// 0.8 ms on the same upload.
import http from 'node:http';

/** A status and the whole body of an answer. */
export interface Answer {
  status: number;
  body: Buffer;
}

/** Sends one request on `agent`'s kept-alive connections and reads its whole answer. */
export function send(
  agent: http.Agent,
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers: body ? { ...headers, 'content-length': String(body.length) } : headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The answer when it is 2xx; otherwise an error naming `what` with the status and body. */
export function expectOk(answer: Answer, what: string): Answer {
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${what}: HTTP ${answer.status} ${answer.body.toString('utf8', 0, 500)}`);
  }
  return answer;
}
