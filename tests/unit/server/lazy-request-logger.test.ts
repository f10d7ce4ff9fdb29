import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from '../../../server/lazy-request-logger.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

describe('the lazy per-request logger', () => {
  it('makes no child logger for lines below the configured level', () => {
    const { logger, lines } = capture('error');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLogger(logger, { reqId: 'req-7' }, {});
    log.info({ url: '/api/v1/health' }, 'incoming request');
    log.debug('details');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('writes a line at or above the level with the request id bound', async () => {
    const { logger, lines } = capture('info');
    const log = lazyChildLogger(logger, { reqId: 'req-8' }, {});
    log.info({ status: 200 }, 'request completed');
    log.error(new Error('boom'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: 'req-8', status: 200, msg: 'request completed' });
    expect(lines[1]).toMatchObject({ reqId: 'req-8', level: 50 });
  });

  it('passes child loggers and the level through', () => {
    const { logger, lines } = capture('warn');
    const log = lazyChildLogger(logger, { reqId: 'req-9' }, {});
    expect(log.level).toBe('warn');
    log.child({ step: 'decode' }).warn('slow');
    expect(lines[0]).toMatchObject({ reqId: 'req-9', step: 'decode', msg: 'slow' });
  });
});
