/**
 * Work buffers kept between calls, for kernels whose temporaries do not outlive one call: a check allocates
 * many arrays of one size, and a fresh typed array each time costs a zeroing pass and feeds the garbage
 * collector. A buffer's contents are whatever its last user left: a kernel writes every element it reads.
 * Each name is one buffer, so two temporaries alive at once need two names.
 */
type Typed = Float32Array | Float64Array | Int32Array | Uint8Array;
const buffers = new Map<string, Typed>();

/** The buffer under `name` as an array of `length` elements of `Kind`, grown (and retyped) when it must be. */
function scratch<T extends Typed>(Kind: new (length: number) => T, name: string, length: number): T {
  let buffer = buffers.get(name);
  if (!(buffer instanceof Kind) || buffer.length < length) {
    buffer = new Kind(length);
    buffers.set(name, buffer);
  }
  return (buffer as T).subarray(0, length) as T;
}

/** A Float32Array of `length` elements for temporary use under `name` (contents unspecified). */
export function scratchFloat32(name: string, length: number): Float32Array {
  return scratch(Float32Array, name, length);
}

/** A Float64Array of `length` elements for temporary use under `name` (contents unspecified). */
export function scratchFloat64(name: string, length: number): Float64Array {
  return scratch(Float64Array, name, length);
}

/** An Int32Array of `length` elements for temporary use under `name` (contents unspecified). */
export function scratchInt32(name: string, length: number): Int32Array {
  return scratch(Int32Array, name, length);
}

/** A Uint8Array of `length` elements for temporary use under `name` (contents unspecified). */
export function scratchUint8(name: string, length: number): Uint8Array {
  return scratch(Uint8Array, name, length);
}
