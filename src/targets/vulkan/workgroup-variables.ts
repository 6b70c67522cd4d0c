import { assertNever } from '../../assert-never.js';
import type { DataLayout } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import type { FunctionInfo } from '../../model/kernel-module.js';
import { typeToString } from '../../types/print.js';
import { type QualType, type ScalarName, type Type, canonical } from '../../types/types.js';

/**
 * One Workgroup OpVariable clspv makes for kernel-scope `local` variables, and the
 * WorkgroupVariableSize reflection instruction it gets (clspv #1465, google/clspv
 * test/WorkgroupVariableSize/local-size.cl: `local int array[10]` → size 40).
 *
 * - clang makes each kernel-scope `local` variable a module-scope `addrspace(3)` global; clspv's
 *   SPIRVProducerPass (GenerateGlobalVar) makes every Workgroup global an OpVariable and records
 *   its size, `BitcastUtils::SizeInBits(DL, valueType) / 8`: the type's alloc size (float3 → 16).
 * - `local` pointer arguments are not among them: they are ArgumentWorkgroup arrays sized by spec
 *   constants (the `local` slots), and no spec constant sizes a kernel-scope variable.
 * - ShareModuleScopeVariablesPass (on unless `-no-share-module-scope-variables`) folds a later
 *   global into an earlier one of the same LLVM type when no kernel uses both, so kernels that
 *   never run together share one variable: `variables` lists them, the kept one first.
 * - A variable nothing refers to is gone before (the optimizer deletes unused internal globals).
 *
 * clspv emits the instructions in the iteration order of a DenseMap keyed by SPIR-V result ids (a
 * hash order, not a documented one); kernarg lists them in module order.
 */
export interface WorkgroupVariable {
  readonly reflection: 'WorkgroupVariableSize';
  /** Bytes of Workgroup memory. */
  readonly size: number;
  /** The kernel-scope variables it holds: kernel, name and declared type. */
  readonly variables: readonly { readonly kernel: string; readonly name: string; readonly typeName: string }[];
}

const INTEGER_BITS = {
  bool: 8,
  char: 8,
  uchar: 8,
  short: 16,
  ushort: 16,
  int: 32,
  uint: 32,
  long: 64,
  ulong: 64,
} as const;

/**
 * The LLVM type clang gives a variable of this type, as a key: two variables share a Workgroup
 * variable only when their types are the same LLVM type (clspv::InferType of a global is its value
 * type), so signedness and typedefs do not matter but each struct declaration is its own type.
 */
export function llvmTypeKey(t: QualType | Type, dl: DataLayout): string {
  const c = canonical('kind' in t ? { type: t } : t).type;
  switch (c.kind) {
    case 'scalar':
      return scalarKey(c.name, dl);
    case 'vector':
      return `<${c.length} x ${scalarKey(c.element, dl)}>`;
    case 'array':
      return `[${c.length ?? 0} x ${llvmTypeKey(c.element, dl)}]`;
    case 'record':
      return `%record.${c.decl.id}`;
    case 'enum':
      return `i${layoutOf(c, dl).size * 8}`;
    case 'pointer':
      return `ptr ${canonical(c.pointee).space ?? 'generic'}`;
    case 'image':
    case 'pipe':
    case 'opaque':
    case 'function':
      return `${c.kind} ${typeToString({ type: c })}`;
    case 'typedef':
      throw new Error('unreachable: canonical types have no typedefs');
    default:
      return assertNever(c);
  }
}

function scalarKey(name: ScalarName, dl: DataLayout): string {
  if (name === 'half' || name === 'float' || name === 'double' || name === 'void') return name;
  if (name in INTEGER_BITS) return `i${INTEGER_BITS[name as keyof typeof INTEGER_BITS]}`;
  // size_t and its kin: the pointer width.
  return `i${dl.sizeT * 8}`;
}

/** The Workgroup variables of the kernels' kernel-scope `local` variables, after clspv's sharing. */
export function workgroupVariables(kernels: readonly FunctionInfo[], dl: DataLayout): WorkgroupVariable[] {
  const globals: { kernel: string; name: string; type: QualType; key: string; users: Set<string> }[] = [];
  for (const k of kernels) {
    // Most kernels of a file of very many declare none: no array made for them.
    if (!k.localVariables?.length) continue;
    const locals = k.localVariables.filter((v) => v.used);
    if (!locals.length) continue;
    // The entry points that reach the variable: its kernel alone (ShareModuleScopeVariables traces
    // calls from each kernel, but clspv refuses a kernel calling a kernel: module-checks.ts).
    const users = new Set([k.name]);
    for (const v of locals)
      globals.push({ kernel: k.name, name: v.name, type: v.type, key: llvmTypeKey(v.type, dl), users });
  }
  const folded = new Array<boolean>(globals.length).fill(false);
  const out: WorkgroupVariable[] = [];
  for (let i = 0; i < globals.length; i++) {
    if (folded[i]) continue;
    const g = globals[i];
    const users = new Set(g.users);
    const variables = [{ kernel: g.kernel, name: g.name, typeName: typeToString(g.type) }];
    for (let j = i + 1; j < globals.length; j++) {
      const n = globals[j];
      if (folded[j] || n.key !== g.key || [...n.users].some((u) => users.has(u))) continue;
      folded[j] = true;
      for (const u of n.users) users.add(u);
      variables.push({ kernel: n.kernel, name: n.name, typeName: typeToString(n.type) });
    }
    out.push({ reflection: 'WorkgroupVariableSize', size: layoutOf(g.type, dl).size, variables });
  }
  return out;
}
