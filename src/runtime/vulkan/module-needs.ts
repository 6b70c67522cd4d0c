// What a SPIR-V module asks of a Vulkan device, read from its words: the device features its
// capabilities and atomics need (float atomic add on buffers or on workgroup memory, 64-bit integer
// atomics), the device extensions its SPIR-V extensions need, and its entry points.
import { RuntimeInputError } from '../../pack/errors.js';

/** A device extension, and the Vulkan version that made it core (undefined: never core). */
export interface ExtensionNeed {
  readonly name: string;
  readonly core?: number;
}

export interface ModuleNeeds {
  readonly features: ReadonlySet<string>;
  readonly extensions: readonly ExtensionNeed[];
  readonly entryPoints: readonly string[];
}

const v = (major: number, minor: number) => (major << 22) | (minor << 12);

const SPV_EXTENSIONS: Record<string, ExtensionNeed> = {
  SPV_KHR_storage_buffer_storage_class: { name: 'VK_KHR_storage_buffer_storage_class', core: v(1, 1) },
  SPV_KHR_variable_pointers: { name: 'VK_KHR_variable_pointers', core: v(1, 1) },
  SPV_KHR_16bit_storage: { name: 'VK_KHR_16bit_storage', core: v(1, 1) },
  SPV_KHR_8bit_storage: { name: 'VK_KHR_8bit_storage', core: v(1, 2) },
  SPV_KHR_physical_storage_buffer: { name: 'VK_KHR_buffer_device_address', core: v(1, 2) },
  SPV_KHR_vulkan_memory_model: { name: 'VK_KHR_vulkan_memory_model', core: v(1, 2) },
  SPV_KHR_float_controls: { name: 'VK_KHR_shader_float_controls', core: v(1, 2) },
  SPV_KHR_non_semantic_info: { name: 'VK_KHR_shader_non_semantic_info', core: v(1, 3) },
  SPV_EXT_shader_atomic_float_add: { name: 'VK_EXT_shader_atomic_float' },
};

/** Capabilities that need one device feature each (atomics are judged by the instructions instead). */
const CAPABILITY_FEATURES: Record<number, string> = {
  9: 'shaderFloat16',
  10: 'shaderFloat64',
  11: 'shaderInt64',
  22: 'shaderInt16',
  39: 'shaderInt8',
  4433: 'storageBuffer16BitAccess',
  4434: 'uniformAndStorageBuffer16BitAccess',
  4435: 'storagePushConstant16',
  4448: 'storageBuffer8BitAccess',
  4449: 'uniformAndStorageBuffer8BitAccess',
  4450: 'storagePushConstant8',
  4441: 'variablePointersStorageBuffer',
  4442: 'variablePointers',
  5347: 'bufferDeviceAddress',
  5345: 'vulkanMemoryModel',
  5346: 'vulkanMemoryModelDeviceScope',
};

const Op = {
  Extension: 10,
  EntryPoint: 15,
  Capability: 17,
  TypeInt: 21,
  TypeFloat: 22,
  TypePointer: 32,
  TypeForwardPointer: 39,
  AtomicStore: 228,
  AtomicFAddEXT: 6035,
} as const;
/** Instructions that may produce the pointer an atomic works on: result type, then result id. */
const POINTER_PRODUCERS = new Set([1, 55, 59, 61, 65, 66, 67, 70, 83, 120, 124, 169, 245]);
const isAtomic = (op: number) => (op >= 227 && op <= 242) || op === Op.AtomicFAddEXT || op === 5614 || op === 5615;
const WORKGROUP = 4;

function literalString(words: Uint32Array, start: number, end: number): string {
  const bytes: number[] = [];
  for (let i = start; i < end; i++) {
    for (let b = 0; b < 4; b++) {
      const c = (words[i] >>> (8 * b)) & 0xff;
      if (c === 0) return String.fromCharCode(...bytes);
      bytes.push(c);
    }
  }
  return String.fromCharCode(...bytes);
}

/** Reads a module's needs; throws a clear error for words that are not SPIR-V. */
export function moduleNeeds(words: Uint32Array): ModuleNeeds {
  if (words.length < 5 || words[0] !== 0x07230203)
    throw new RuntimeInputError('not a SPIR-V module (the magic number 0x07230203 is missing)');
  const features = new Set<string>();
  const extensions: ExtensionNeed[] = [];
  const entryPoints: string[] = [];
  const pointerTypes = new Map<number, { storage: number; pointee: number }>();
  const scalarTypes = new Map<number, { float: boolean; width: number }>();
  const typeOf = new Map<number, number>();
  const forward = new Map<number, number>();
  const atomics: { op: number; pointer: number }[] = [];
  for (let i = 5; i < words.length;) {
    const count = words[i] >>> 16;
    const op = words[i] & 0xffff;
    if (count === 0 || i + count > words.length)
      throw new RuntimeInputError(`malformed SPIR-V: an instruction at word ${i} runs past the end`);
    const w = (k: number) => words[i + k];
    if (op === Op.Capability) {
      const f = CAPABILITY_FEATURES[w(1)];
      if (f) features.add(f);
    } else if (op === Op.Extension) {
      const name = literalString(words, i + 1, i + count);
      const need = SPV_EXTENSIONS[name];
      if (!need)
        throw new RuntimeInputError(
          `the module uses the SPIR-V extension ${name}, which kernarg's Vulkan host cannot enable`,
        );
      extensions.push(need);
    } else if (op === Op.EntryPoint) entryPoints.push(literalString(words, i + 3, i + count));
    else if (op === Op.TypeInt) scalarTypes.set(w(1), { float: false, width: w(2) });
    else if (op === Op.TypeFloat) scalarTypes.set(w(1), { float: true, width: w(2) });
    else if (op === Op.TypePointer) pointerTypes.set(w(1), { storage: w(2), pointee: w(3) });
    else if (op === Op.TypeForwardPointer) forward.set(w(1), w(2));
    else if (isAtomic(op)) atomics.push({ op, pointer: op === Op.AtomicStore ? w(1) : w(3) });
    if (POINTER_PRODUCERS.has(op) && count >= 3) typeOf.set(w(2), w(1));
    i += count;
  }
  for (const a of atomics) {
    const t = pointerTypes.get(typeOf.get(a.pointer) ?? -1);
    const s = t && scalarTypes.get(t.pointee);
    if (!t || !s) continue;
    const where = t.storage === WORKGROUP ? 'Shared' : 'Buffer';
    if (s.float && a.op === Op.AtomicFAddEXT) features.add(`shader${where}Float${s.width}AtomicAdd`);
    else if (s.float) features.add(`shader${where}Float${s.width}Atomics`);
    else if (s.width === 64) features.add(`shader${where}Int64Atomics`);
  }
  return { features, extensions, entryPoints };
}
