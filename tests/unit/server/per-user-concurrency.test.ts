import { describe, expect, it } from 'vitest';
import { perUserConcurrency } from '../../../server/modules/qc/per-user-concurrency.ts';

describe('perUserConcurrency', () => {
  it('gives a key no more slots than its limit, and other keys their own', () => {
    const limit = perUserConcurrency(2);
    const first = limit.tryAcquire('ada');
    const second = limit.tryAcquire('ada');
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(limit.tryAcquire('ada')).toBeUndefined();
    expect(limit.tryAcquire('grace')).toBeTypeOf('function');
    expect(limit.runningFor('ada')).toBe(2);
  });

  it('gives a slot back once however often it is released', () => {
    const limit = perUserConcurrency(2);
    const first = limit.tryAcquire('ada')!;
    limit.tryAcquire('ada');
    first();
    first();
    expect(limit.runningFor('ada')).toBe(1);
    expect(limit.tryAcquire('ada')).toBeTypeOf('function');
    expect(limit.tryAcquire('ada')).toBeUndefined();
  });
});
