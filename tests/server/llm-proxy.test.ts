import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { phantomDicom } from '../fixtures/upload-images.ts';
import { fixtureIdentity } from '../fixtures/identity.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

/** An OpenAI-compatible server on loopback: it records what it is sent and answers as told. */
let upstream: Server;
let received: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let mode: 'ok' | 'error' | 'garbage' | 'slow' = 'ok';

beforeAll(async () => {
  upstream = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      if (mode === 'error')
        return response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"GPU out of memory"}}');
      if (mode === 'garbage')
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>');
      const answer = {
        id: 'chatcmpl-upstream-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'medgemma-test',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Mild noise. Confidence: 72/100. Fix: more averages.' },
            finish_reason: 'stop',
          },
        ],
      };
      if (mode === 'slow') setTimeout(() => response.writeHead(200).end(JSON.stringify(answer)), 9_500).unref();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  t = await createTestApp({
    LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
    LLM_MODEL: 'medgemma-test',
    LLM_API_KEY: 'sk-test-key',
  });
  user = await createSignedInUser(t);
  url = (await uploadFile(t, user, 'scan.dcm', await phantomDicom())).json().url;
});
afterAll(async () => {
  await t.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});
beforeEach(() => {
  received = [];
  mode = 'ok';
});

let t: TestApp;
let user: TestUser;
let url: string;

const check = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/llm/generate-messages',
    headers: user.auth,
    payload: {
      model: 'google/medgemma-4b-it',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url } },
            { type: 'text', text: 'Short QC summary please.' },
          ],
        },
      ],
    },
  });

describe('the OpenAI-compatible proxy (LLM_BASE_URL set)', () => {
  it('sends the image as a PNG data: URL with the prompt and metrics to /v1/chat/completions, and returns the answer', async () => {
    const res = await check();
    expect(res.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    const sent = received[0]!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-key');
    const body = JSON.parse(sent.body);
    expect(body.model).toBe('medgemma-test');
    const [image, text] = body.messages[0].content;
    expect(image.image_url.url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(image.image_url.url.split(',')[1], 'base64');
    expect((await sharp(png).metadata()).format).toBe('png');
    expect(text.text).toContain('Short QC summary please.');
    expect(text.text).toMatch(/Measured by the server: SNR [^,]*\d/);
    expect(res.json().choices[0].message.content).toBe('Mild noise. Confidence: 72/100. Fix: more averages.');
    expect(res.json().model).toBe('medgemma-test');
    expect(res.json().qc.confidence).toBe(72);
  });

  it('never sends a DICOM tag value upstream', async () => {
    await check();
    for (const value of Object.values(fixtureIdentity)) expect(received[0]!.body).not.toContain(value);
    expect(received[0]!.body).not.toContain('T1 axial');
  });

  it('stores the upstream answer with its model in the history', async () => {
    await check();
    const name = url.split('/').pop();
    const history = (
      await t.app.inject({ method: 'GET', url: `/api/v1/uploads/${name}/qc-results`, headers: user.auth })
    ).json();
    expect(history[0]).toMatchObject({
      model: 'medgemma-test',
      text: 'Mild noise. Confidence: 72/100. Fix: more averages.',
      confidence: 72,
    });
  });

  it('answers 502 with a clear detail when the upstream fails, and stores nothing', async () => {
    const name = url.split('/').pop();
    const before = (
      await t.app.inject({ method: 'GET', url: `/api/v1/uploads/${name}/qc-results`, headers: user.auth })
    ).json().length;
    mode = 'error';
    const failed = await check();
    expect(failed.statusCode).toBe(502);
    expect(failed.json().detail).toBe('The quality-check model could not answer: it answered HTTP 500.');
    mode = 'garbage';
    expect((await check()).json().detail).toBe('The quality-check model could not answer: its answer was not JSON.');
    const after = (
      await t.app.inject({ method: 'GET', url: `/api/v1/uploads/${name}/qc-results`, headers: user.auth })
    ).json().length;
    expect(after).toBe(before);
  });

  it('gives up after 9 s so the browser (10 s) still hears why', async () => {
    mode = 'slow';
    const res = await check();
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBe('The quality-check model could not answer: no answer within 9 s.');
  }, 20_000);

  it('keeps 30 checks a minute where each one calls the upstream model', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await check()).statusCode);
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThanOrEqual(30);
    expect(statuses.slice(limited).every((s) => s === 429)).toBe(true);
  }, 30_000);
});
