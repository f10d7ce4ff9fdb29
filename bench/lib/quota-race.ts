// The quota race of the bombs benchmark: 64 uploads at once into one workspace whose quota holds 32 and a half
// of them, 10 rounds (a fresh account, so a fresh personal workspace, each), against a server started with
// WORKSPACE_QUOTA_BYTES. Accepted bytes must never pass the quota; a server that accepts all 64 does not enforce it.
import { randomBytes } from 'node:crypto';
import { niftiBytes } from '../../tests/server/uploads-fixtures.ts';
import { fileBody } from './attack-bodies.ts';
import { benchAccount } from './bench-account.ts';
import { startApiServer } from './child-server.ts';
import { benchAgent, send } from './client.ts';

const UPLOADS = 64;
const ROUNDS = 10;
const FILE_BYTES = 256 * 1024;

/** Runs the race on `port` and prints one line per round and a verdict. */
export async function quotaRace(port: number, env: Record<string, string>): Promise<void> {
  const quota = Math.floor(FILE_BYTES * (UPLOADS / 2 + 0.5));
  const server = await startApiServer(port, { ...env, WORKSPACE_QUOTA_BYTES: String(quota) });
  console.log(
    `\nquota race: ${UPLOADS} concurrent uploads of ${FILE_BYTES / 1024} KiB, quota ${quota} bytes, ${ROUNDS} rounds`,
  );
  const agent = benchAgent(UPLOADS);
  let over = 0;
  let enforced = false;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const auth = { authorization: `Bearer ${await benchAccount(server.url, server.dataDir)}` };
      const answers = await Promise.all(
        Array.from({ length: UPLOADS }, async () => {
          const file = Buffer.concat([niftiBytes(), randomBytes(FILE_BYTES - niftiBytes().length)]);
          const body = fileBody('race.nii', file);
          try {
            const answer = await send(agent, `${server.url}/api/v1/uploads`, {
              method: 'POST',
              headers: { ...auth, ...body.headers },
              body: body.body,
            });
            const size =
              answer.status === 201 ? (JSON.parse(answer.body.toString()) as { size_bytes: number }).size_bytes : 0;
            return { status: answer.status, size };
          } catch {
            return { status: 0, size: 0 };
          }
        }),
      );
      const accepted = answers.filter((a) => a.status === 201);
      const bytes = accepted.reduce((sum, a) => sum + a.size, 0);
      const refused = answers.filter((a) => a.status === 413).length;
      const others = answers.filter((a) => a.status !== 201 && a.status !== 413).map((a) => a.status);
      enforced ||= refused > 0;
      if (bytes > quota) over++;
      console.log(
        `round ${String(round).padStart(2)}: ${accepted.length} accepted (${bytes} bytes, ${bytes <= quota ? 'within' : `${bytes - quota} over`}), ` +
          `${refused} refused with 413${others.length ? `, others: ${others.join(' ')}` : ''}`,
      );
    }
  } finally {
    await agent.close();
    await server.stop();
  }
  if (!enforced) console.log(`quota race: quota not enforced (no 413 in ${ROUNDS} rounds) MISS`);
  else
    console.log(
      `quota race: ${over === 0 ? 'never over the quota PASS' : `over the quota in ${over} of ${ROUNDS} rounds MISS`}`,
    );
}
