import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../../server/db/group-commit.ts';

/** A write that records each batch it is given, failing any batch that holds `bad`. */
function recordingWrite(bad?: string) {
  const batches: string[][] = [];
  let release: (() => void) | undefined;
  const write = async (items: string[]) => {
    batches.push(items);
    if (release === undefined && items.includes('hold')) await new Promise<void>((r) => (release = r));
    if (bad !== undefined && items.includes(bad)) throw new Error(`refused ${bad}`);
  };
  return { batches, write, release: () => release?.() };
}

describe('groupCommit', () => {
  it('writes an item alone when nothing else is waiting', async () => {
    const { batches, write } = recordingWrite();
    const store = groupCommit(write);
    await store('a');
    await store('b');
    expect(batches).toEqual([['a'], ['b']]);
  });

  it('writes the items of one turn of the event loop in one batch', async () => {
    const { batches, write } = recordingWrite();
    const store = groupCommit(write);
    await Promise.all(['a', 'b', 'c'].map((item) => store(item)));
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('gathers the items that arrive during a write into the next one', async () => {
    const { batches, write, release } = recordingWrite();
    const store = groupCommit(write);
    const first = store('hold');
    await nextTurn();
    const later = [store('b'), store('c')];
    await nextTurn();
    expect(batches).toEqual([['hold']]);
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([['hold'], ['b', 'c']]);
  });

  it('fails only the caller whose item is refused, writing the others alone', async () => {
    const { batches, write } = recordingWrite('bad');
    const store = groupCommit(write);
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((item) => store(item)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused bad'));
    expect(batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('takes at most sixteen items per write', async () => {
    const { batches, write } = recordingWrite();
    const store = groupCommit(write);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store(String(i))));
    expect(batches.map((b) => b.length)).toEqual([16, 4]);
  });
});
