import { spelledOnce } from '../text/spelled-once.js';
import { type QualType, type RecordDecl, type Type, canonical } from './types.js';

function recordName(decl: RecordDecl): string {
  if (decl.name) return `${decl.tagKind} ${decl.name}`;
  if (decl.typedefName) return decl.typedefName;
  const { path, line, col } = decl.span.file.presumed(decl.span.start);
  return `${decl.tagKind} (unnamed at ${path}:${line}:${col})`;
}

/**
 * A type as clang's `kernel_arg_type` (and `clGetKernelArgInfo`) spells it: typedef names
 * kept, OpenCL scalar names (`uint`), `struct Tag`, qualifiers and address spaces dropped,
 * pointers as `T*`.
 */
export function kernelArgTypeName(t: QualType | Type): string {
  const type = 'kind' in t ? t : t.type;
  switch (type.kind) {
    case 'scalar':
      return type.name;
    case 'vector':
      return spelledOnce(type.element, type.length);
    case 'pointer':
      // A pointer to a pointer prints its pointee in full, address spaces included: `__global float **`.
      if (canonicalPointer(type.pointee)) return `${clangTypeString(type.pointee.type)}*`;
      // A pointer to an array (not a typedef of one) keeps the element's qualifiers and spelling: `const __global
      // unsigned char[6]*`.
      if (type.pointee.type.kind === 'array') return `${arrayTypeString(type.pointee.type)}*`;
      return spelledOnce(kernelArgTypeName(type.pointee), '*');
    case 'array':
      return `${kernelArgTypeName(type.element)} [${type.length ?? ''}]`;
    case 'record':
      return recordName(type.decl);
    case 'enum':
      return type.decl.name ? `enum ${type.decl.name}` : (type.decl.typedefName ?? 'enum (unnamed)');
    case 'typedef':
      // A typedef of a pointer prints as the pointer it names (clang spells pointer arguments as pointee + '*').
      return canonicalPointer(type.target) ? kernelArgTypeName(resolvedPointer(type.target)) : type.name;
    case 'image':
    case 'opaque':
      return type.name;
    case 'pipe':
      return kernelArgTypeName(type.element);
    case 'function':
      return `${kernelArgTypeName(type.result)} (${type.params.map(kernelArgTypeName).join(', ')})`;
  }
}

/** An array type as clang prints it on its own: `const __global char2[3][8]`, `__global unsigned int[2]`. */
function arrayTypeString(t: Type): string {
  let dims = '';
  let element: QualType = { type: t };
  while (element.type.kind === 'array') {
    dims += `[${element.type.length ?? ''}]`;
    element = element.type.element;
  }
  const e = element.type;
  const name = e.kind === 'scalar' && e.spelling ? e.spelling : kernelArgTypeName(e);
  return `${clangTypeString({ ...element, type: { kind: 'typedef', name, target: element } })}${dims}`;
}

/** The pointer type a typedef chain names (its own sugar kept below the pointer). */
function resolvedPointer(t: QualType): Type {
  let ty = t.type;
  while (ty.kind === 'typedef') ty = ty.target.type;
  return ty;
}

function canonicalPointer(t: QualType): boolean {
  let ty = t.type;
  while (ty.kind === 'typedef') ty = ty.target.type;
  return ty.kind === 'pointer';
}

/** clang's own type printer for a qualified type: `const __global float`, `__global float *`. */
export function clangTypeString(t: QualType | Type): string {
  const qt: QualType = 'kind' in t ? { type: t } : t;
  const quals: string[] = [];
  if (qt.const) quals.push('const');
  if (qt.volatile) quals.push('volatile');
  const space = qt.space && qt.space !== 'generic' ? `__${qt.space}` : '';
  if (qt.type.kind === 'pointer') {
    const own = [...quals, ...(qt.restrict ? ['restrict'] : []), ...(space ? [space] : [])].join(' ');
    const inner = clangTypeString(qt.type.pointee);
    return `${inner}${inner.endsWith('*') ? '' : ' '}*${own}`;
  }
  if (space) quals.push(space);
  return `${quals.length ? quals.join(' ') + ' ' : ''}${kernelArgTypeName(qt.type)}`;
}

function qualPrefix(t: QualType, withSpace: boolean): string {
  const parts: string[] = [];
  if (withSpace && t.space && t.space !== 'generic') parts.push(t.space);
  if (t.access) parts.push(t.access);
  if (t.const) parts.push('const');
  if (t.volatile) parts.push('volatile');
  return parts.length ? parts.join(' ') + ' ' : '';
}

/**
 * A declaration in OpenCL C source form: `global const float *restrict a`, `float4 v`,
 * `read_only image2d_t img`, `pipe int p`. Used by the signatures and OpenCL C emitters.
 */
export function declarationText(t: QualType, name: string): string {
  const type = t.type;
  const id = name ? ` ${name}` : '';
  switch (type.kind) {
    case 'pointer': {
      const inner = type.pointee;
      const quals = [t.const ? 'const' : '', t.volatile ? 'volatile' : '', t.restrict ? 'restrict' : '']
        .filter(Boolean)
        .join(' ');
      const declarator = `*${quals ? quals + ' ' : ''}${name}`.trimEnd();
      if (inner.type.kind === 'pointer' || inner.type.kind === 'array')
        return declarationText(inner, `(${declarator})`);
      return `${qualPrefix(inner, true)}${baseText(inner.type)} ${declarator}`;
    }
    case 'array':
      return declarationText(type.element, `${name}[${type.length ?? ''}]`);
    case 'pipe':
      return `${t.access ? t.access + ' ' : ''}pipe ${declarationText(type.element, name)}`;
    default:
      return `${qualPrefix(t, true)}${baseText(type)}${id}`;
  }
}

function baseText(type: Type): string {
  return kernelArgTypeName(type);
}

/** How diagnostics show a type: the declaration without a name. */
export function typeToString(t: QualType): string {
  return declarationText(t, '').trim();
}

/**
 * The type qualifiers `clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_QUALIFIER)` and clang's
 * `kernel_arg_type_qual` report: `restrict` of a pointer, `const`/`volatile` of its pointee
 * (`constant` memory counts as const), `pipe` for pipes; '' for everything else.
 */
export function kernelArgTypeQual(t: QualType): string {
  const c = canonical(t);
  if (c.type.kind === 'pipe') return 'pipe';
  if (c.type.kind !== 'pointer') return '';
  const pointee = canonical(c.type.pointee);
  // The eight answers as constants, indexed by restrict, const, volatile (no string made per call).
  return TYPE_QUALS[
    (c.restrict ? 4 : 0) | (pointee.const || pointee.space === 'constant' ? 2 : 0) | (pointee.volatile ? 1 : 0)
  ];
}
const TYPE_QUALS: readonly string[] = Array.from({ length: 8 }, (_, k) =>
  [k & 4 ? 'restrict' : '', k & 2 ? 'const' : '', k & 1 ? 'volatile' : ''].filter(Boolean).join(' '),
);
