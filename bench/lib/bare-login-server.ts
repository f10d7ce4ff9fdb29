// The baseline of bench/login.ts: bare node:http checking each request's password against one argon2id hash
// on the app's own password pool (same parameters, same threads), then answering a token-sized JSON.
// What it costs is what hashing alone costs on this machine right now; the rest of the app's time is routing,
// rate limits, the database and the session.
import http from 'node:http';
import { hashPassword, verifyPassword } from '../../server/modules/auth/passwords.ts';

const stored = await hashPassword(process.env.BARE_PASSWORD ?? '');
const answer = JSON.stringify({ access_token: 'x'.repeat(43), token_type: 'bearer' });
http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (req.method !== 'POST') return void res.end('ok');
      const { password } = JSON.parse(Buffer.concat(chunks).toString()) as { password: string };
      const ok = await verifyPassword(stored, password);
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json; charset=utf-8' }).end(answer);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
