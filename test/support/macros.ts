/**
 * `#define NAME(params) value` lines of `clang -dM -E` → name (parameters without spaces) → value with spaces squeezed.
 */
export function macros(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^#define (\w+(?:\([^)]*\))?)(?: (.*))?$/gm))
    out.set(m[1].replace(/\s+/g, ''), (m[2] ?? '').replace(/\s+/g, ' ').trim());
  return out;
}

/** The macros a kernel may test for its target and version: kernarg must define every one clang does. */
export const OPENCL_FAMILY =
  /^(__OPENCL|__opencl_c_|cl_|cles_|CL_VERSION_|__SPIR|__AMD|__gfx|__HAS_|__IMAGE_SUPPORT__|__ENDIAN_LITTLE__|__LITTLE_ENDIAN__|__ORDER_|__BYTE_ORDER__|__CHAR_BIT__|__SIZEOF_POINTER__|__SIZE_MAX__|__GNUC|__clang__|__clang_m)/;
