import type { Wretch } from 'wretch';

/**
 * Downloads a file through the API client (so the bearer token and the 401 rule apply), reporting
 * bytes as they arrive. Big volumes outlast the client's 10 s default, so the caller's signal is the
 * only limit.
 */
export async function fetchWithProgress(
  client: Wretch,
  path: string,
  signal: AbortSignal,
  onProgress: (received: number, total?: number) => void,
): Promise<ArrayBuffer> {
  const response = await client.options({ signal }).get(path).res();
  const total = Number(response.headers.get('content-length')) || undefined;
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received, total);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes.buffer;
}
