import { move, transferableSymbol, valueSymbol } from 'piscina';

/** `answer` as a pool task returns it, with `buffers` moved to the main thread instead of copied. */
export function transferred<T extends object>(answer: T, buffers: ArrayBuffer[]): T {
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return answer;
    },
  }) as unknown as T;
}

/** `bytes` in a buffer of its own, so it can be moved between threads without taking a larger buffer along. */
export function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}
