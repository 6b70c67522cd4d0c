import { CLSPV_REFLECTION_IMPORT, Reflection } from './clspv-reflection.js';
import { Decoration, ExecutionMode, Op, StorageClass, invert } from './spec.js';

/** One argument as the reflection instructions describe it (the descriptor map's fields). */
export interface ReflectedArg {
  readonly name: string;
  readonly argKind:
    'buffer' | 'buffer_ubo' | 'pod' | 'pod_ubo' | 'pod_pushconstant' | 'pointer_pushconstant' | 'pointer_ubo' | 'local';
  readonly ordinal: number;
  readonly descriptorSet?: number;
  readonly binding?: number;
  readonly offset?: number;
  readonly argSize?: number;
}

export interface ReflectedKernel {
  readonly name: string;
  readonly args: ReflectedArg[];
  reqdWorkGroupSize?: [number, number, number];
  /** The entry point's LocalSize execution mode, when it has one. */
  localSize?: [number, number, number];
}

/** A module-scope resource as its decorations declare it (variables of one name at one binding, aliases, are one). */
export interface DecoratedResource {
  readonly name: string;
  readonly storageClass: string;
  readonly descriptorSet?: number;
  readonly binding?: number;
  /** Members of its block: name (OpMemberName) and Offset. */
  readonly members: { name: string; offset: number }[];
}

export interface ModuleInterface {
  readonly kernels: ReflectedKernel[];
  /** Spec ids of the work-group size (SpecConstantWorkgroupSize), when it has them. */
  workgroupSizeSpecIds?: [number, number, number];
  /** Every SpecId decoration. */
  readonly specIds: number[];
  readonly resources: DecoratedResource[];
}

const ARG_KIND: Partial<Record<number, ReflectedArg['argKind']>> = {
  [Reflection.ArgumentStorageBuffer]: 'buffer',
  [Reflection.ArgumentUniform]: 'buffer_ubo',
  [Reflection.ArgumentPodStorageBuffer]: 'pod',
  [Reflection.ArgumentPodUniform]: 'pod_ubo',
  [Reflection.ArgumentPodPushConstant]: 'pod_pushconstant',
  [Reflection.ArgumentWorkgroup]: 'local',
  [Reflection.ArgumentPointerPushConstant]: 'pointer_pushconstant',
  [Reflection.ArgumentPointerUniform]: 'pointer_ubo',
};
const STORAGE_CLASS = invert(StorageClass);

function text(words: Uint32Array, at: number): string {
  const bytes: number[] = [];
  for (let i = at; i < words.length; i++) {
    for (let k = 0; k < 4; k++) {
      const b = (words[i] >>> (8 * k)) & 0xff;
      if (b === 0) return new TextDecoder().decode(Uint8Array.from(bytes));
      bytes.push(b);
    }
  }
  throw new Error('SPIR-V: unterminated string');
}

/**
 * Reads a module's kernel interface back two ways: from its NonSemantic.ClspvReflection
 * instructions (kernels and arguments, as clspv-reflection would print them) and from its
 * decorations (descriptor sets, bindings, block member offsets, spec ids, LocalSize).
 */
export function readInterface(words: Uint32Array): ModuleInterface {
  if (words[0] !== 0x07230203) throw new Error('SPIR-V: bad magic number');
  const names = new Map<number, string>();
  const memberNames = new Map<string, string>();
  const strings = new Map<number, string>();
  const u32 = new Map<number, number>();
  const int32Types = new Set<number>();
  const decorations = new Map<number, Map<number, number>>();
  const memberOffsets = new Map<number, Map<number, number>>();
  const pointers = new Map<number, { sc: number; pointee: number }>();
  const structs = new Map<number, number>();
  const variables: { id: number; type: number; sc: number }[] = [];
  const localSizes = new Map<number, [number, number, number]>();
  const specIds: number[] = [];
  let reflectionSet = -1;
  const kernelsByInst = new Map<number, ReflectedKernel>();
  const infos = new Map<number, string>();
  const out: ModuleInterface = { kernels: [], specIds, resources: [] };
  for (let at = 5; at < words.length;) {
    const count = words[at] >>> 16;
    const op = words[at] & 0xffff;
    const w = (i: number) => words[at + i];
    switch (op) {
      case Op.Name:
        names.set(w(1), text(words, at + 2));
        break;
      case Op.MemberName:
        memberNames.set(`${w(1)}.${w(2)}`, text(words, at + 3));
        break;
      case Op.String:
        strings.set(w(1), text(words, at + 2));
        break;
      case Op.ExtInstImport:
        if (text(words, at + 2) === CLSPV_REFLECTION_IMPORT) reflectionSet = w(1);
        break;
      case Op.ExecutionMode:
        if (w(2) === ExecutionMode.LocalSize) localSizes.set(w(1), [w(3), w(4), w(5)]);
        break;
      case Op.TypeInt:
        if (w(2) === 32) int32Types.add(w(1));
        break;
      case Op.Constant:
        if (int32Types.has(w(1))) u32.set(w(2), w(3));
        break;
      case Op.Decorate: {
        let d = decorations.get(w(1));
        if (!d) decorations.set(w(1), (d = new Map()));
        d.set(w(2), count > 3 ? w(3) : 1);
        if (w(2) === Decoration.SpecId) specIds.push(w(3));
        break;
      }
      case Op.MemberDecorate:
        if (w(3) === Decoration.Offset) {
          let m = memberOffsets.get(w(1));
          if (!m) memberOffsets.set(w(1), (m = new Map()));
          m.set(w(2), w(4));
        }
        break;
      case Op.TypePointer:
        pointers.set(w(1), { sc: w(2), pointee: w(3) });
        break;
      case Op.TypeStruct:
        structs.set(w(1), count - 2);
        break;
      case Op.Variable:
        variables.push({ id: w(2), type: w(1), sc: w(3) });
        break;
      case Op.ExtInst: {
        if (w(3) !== reflectionSet) break;
        const inst = w(4);
        const operand = (i: number) => w(5 + i);
        const num = (i: number) => u32.get(operand(i))!;
        if (inst === Reflection.Kernel) {
          const k: ReflectedKernel = { name: strings.get(operand(1))!, args: [] };
          const ls = localSizes.get(operand(0));
          if (ls) k.localSize = ls;
          kernelsByInst.set(w(2), k);
          out.kernels.push(k);
        } else if (inst === Reflection.ArgumentInfo) infos.set(w(2), strings.get(operand(0))!);
        else if (inst === Reflection.PropertyRequiredWorkgroupSize)
          kernelsByInst.get(operand(0))!.reqdWorkGroupSize = [num(1), num(2), num(3)];
        else if (inst === Reflection.SpecConstantWorkgroupSize) out.workgroupSizeSpecIds = [num(0), num(1), num(2)];
        else {
          const kind = ARG_KIND[inst];
          if (!kind) break;
          const k = kernelsByInst.get(operand(0))!;
          const n = count - 5;
          const name = infos.get(operand(n - 1)) ?? '';
          const base = { name, argKind: kind, ordinal: num(1) };
          if (kind === 'pod_pushconstant' || kind === 'pointer_pushconstant')
            k.args.push({ ...base, offset: num(2), argSize: num(3) });
          else if (kind === 'pod' || kind === 'pod_ubo' || kind === 'pointer_ubo')
            k.args.push({ ...base, descriptorSet: num(2), binding: num(3), offset: num(4), argSize: num(5) });
          else if (kind === 'local') k.args.push({ ...base });
          else k.args.push({ ...base, descriptorSet: num(2), binding: num(3) });
        }
        break;
      }
    }
    at += count;
  }
  for (const v of variables) {
    const p = pointers.get(v.type);
    if (!p || !structs.has(p.pointee)) continue;
    const d = decorations.get(v.id);
    const offsets = memberOffsets.get(p.pointee) ?? new Map<number, number>();
    const storageClass = STORAGE_CLASS.get(v.sc) ?? String(v.sc);
    const descriptorSet = d?.get(Decoration.DescriptorSet);
    const binding = d?.get(Decoration.Binding);
    const name = names.get(v.id) ?? `%${v.id}`;
    // Variables of one name at one descriptor binding (a buffer read as scalars and as vectors) are one resource.
    if (
      binding !== undefined &&
      out.resources.some(
        (r) =>
          r.name === name &&
          r.storageClass === storageClass &&
          r.descriptorSet === descriptorSet &&
          r.binding === binding,
      )
    )
      continue;
    out.resources.push({
      name,
      storageClass,
      ...(descriptorSet !== undefined ? { descriptorSet } : {}),
      ...(binding !== undefined ? { binding } : {}),
      members: [...offsets].map(([i, offset]) => ({ name: memberNames.get(`${p.pointee}.${i}`) ?? String(i), offset })),
    });
  }
  return out;
}
