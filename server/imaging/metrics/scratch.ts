/**
 * Work buffers kept between calls, for kernels whose temporaries do not outlive one call: a check allocates
 * many arrays of one size, and a fresh typed array each time costs a zeroing pass and feeds the garbage
 * collector. A buffer's contents are whatever its last user left: a kernel writes every element it reads.
 * Each name is one buffer, so two temporaries alive at once need two names.
 */
const buffers = new Map<string, Float32Array | Float64Array>();

/** A Float32Array of `length` elements for temporary use under `name` (contents unspecified). */
export function scratchFloat32(name: string, length: number): Float32Array {
  let buffer = buffers.get(name);
  if (!(buffer instanceof Float32Array) || buffer.length < length) {
    buffer = new Float32Array(length);
    buffers.set(name, buffer);
  }
  return buffer.subarray(0, length);
}

/** A Float64Array of `length` elements for temporary use under `name` (contents unspecified). */
export function scratchFloat64(name: string, length: number): Float64Array {
  let buffer = buffers.get(name);
  if (!(buffer instanceof Float64Array) || buffer.length < length) {
    buffer = new Float64Array(length);
    buffers.set(name, buffer);
  }
  return buffer.subarray(0, length);
}
