// The checks of one logical memref argument ({data, shape, stride?}) against its IR type, shared by
// the OpenCL and Vulkan tinytc launches: element width, modes, static extents and strides, and
// whether the data holds every element the view reaches.
import { canonicalStride, type MemrefType, SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { PackError } from '../../pack/errors.js';

/** A memref after its checks: shape and stride as numbers, the stride filled in. */
export interface CheckedMemref<B> {
  readonly data: ArrayBufferView | B;
  readonly shape: number[];
  readonly stride: number[];
}

/** How a launch names its device buffers: the class test and the word for the error messages. */
export interface BufferKind<B extends { readonly size: number }> {
  readonly is: (x: unknown) => x is B;
  readonly word: string;
}

export function checkMemref<B extends { readonly size: number }>(
  kernel: string,
  name: string,
  t: MemrefType,
  v: unknown,
  offset: number,
  buffers: BufferKind<B>,
): CheckedMemref<B> {
  const m = v as { readonly data: unknown; readonly shape: unknown; readonly stride?: unknown };
  if (typeof m !== 'object' || m === null || !Object.hasOwn(m, 'data') || !Array.isArray(m.shape))
    throw new PackError(kernel, name, 'a memref takes {data, shape, stride?}');
  const data = m.data;
  const isView = ArrayBuffer.isView(data) && !(data instanceof DataView);
  if (!buffers.is(data) && !isView)
    throw new PackError(kernel, `${name}.data`, `expected a typed array or ${buffers.word}`);
  const bytes = SCALAR_BYTES[t.element];
  // A complex number's host array holds its parts interleaved (real, imaginary): entries of the component's size.
  const entry = t.element === 'c32' ? 4 : t.element === 'c64' ? 8 : bytes;
  if (isView && (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT !== entry) {
    const per = (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    throw new PackError(
      kernel,
      `${name}.data`,
      `a ${(data as object).constructor.name} for a memref of ${t.element}: elements of ${per} bytes, not ${entry}`,
    );
  }
  const shape = m.shape as unknown[];
  if (shape.length !== t.shape.length)
    throw new PackError(kernel, name, `shape has ${shape.length} modes, the memref ${t.shape.length}`);
  shape.forEach((e, i) => {
    if (typeof e !== 'number' || !Number.isSafeInteger(e) || e < 0)
      throw new PackError(kernel, `${name}.shape[${i}]`, `${String(e)} is not a valid extent`);
    if (t.shape[i] !== null && t.shape[i] !== e)
      throw new PackError(kernel, `${name}.shape[${i}]`, `${e} differs from the declared static extent ${t.shape[i]}`);
  });
  const extents = shape as number[];
  if (m.stride !== undefined && !Array.isArray(m.stride))
    throw new PackError(kernel, `${name}.stride`, 'expected a list of strides');
  const stride = m.stride ? [...(m.stride as unknown[])] : (canonicalStride(extents) as number[]);
  if (stride.length !== t.shape.length)
    throw new PackError(kernel, name, `stride has ${stride.length} modes, the memref ${t.shape.length}`);
  stride.forEach((s, i) => {
    if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0)
      throw new PackError(kernel, `${name}.stride[${i}]`, `${String(s)} is not a valid stride`);
    if (t.stride[i] !== null && t.stride[i] !== s)
      throw new PackError(
        kernel,
        `${name}.stride[${i}]`,
        `${s} differs from the declared static stride ${t.stride[i]}`,
      );
  });
  const strides = stride as number[];
  // Elements the view reaches: offset + the last element's index + 1 (nothing when an extent is 0).
  const span = extents.some((e) => e === 0) ? 0 : offset + extents.reduce((acc, e, i) => acc + (e - 1) * strides[i], 1);
  const needed = span * bytes;
  const have = buffers.is(data) ? data.size : (data as ArrayBufferView).byteLength;
  if (!Number.isSafeInteger(needed) || have < needed)
    throw new PackError(
      kernel,
      name,
      `data holds ${have} bytes, the ${offset ? `offset ${offset}, ` : ''}shape and stride need ${needed}`,
    );
  return { data: data as ArrayBufferView | B, shape: [...extents], stride: strides };
}
