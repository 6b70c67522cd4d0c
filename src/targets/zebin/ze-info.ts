// `--format ze-info`: the `kernels:` list of a zebin's `.ze_info` section with each kernel's
// `payload_arguments`, in the YAML shape IGC writes (llvm::yaml's: keys padded to a column of 17,
// two-space lists), so the text compares with what ocloc puts in the section.
import { joinPieces } from '../../emit/pieces.js';
import type { ZebinPlan, ZebinSlot } from './plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';

/** One `payload_arguments` entry: its keys in IGC's order. */
type Entry = readonly (readonly [string, string | number])[];

function key(k: string, v: string | number): string {
  const head = `${k}:`;
  return `${head}${' '.repeat(Math.max(1, 17 - head.length))}${v}`;
}

/**
 * The `.ze_info` entries of one slot: a buffer's binding-table entry before its payload one, a struct's pieces one by
 * one.
 */
export function zeEntries(s: ZebinSlot): Entry[] {
  const idx = s.argIndex ?? 0;
  switch (s.argType) {
    case 'none':
      return [];
    case 'arg_bypointer':
    case 'buffer_address': {
      const out: Entry[] = [];
      if (s.bindingTable || s.addrmode === 'stateful') {
        const e: [string, string | number][] = [
          ['arg_type', 'arg_bypointer'],
          ['offset', 0],
          ['size', 0],
          ['arg_index', idx],
          ['addrmode', 'stateful'],
          ['addrspace', s.addrspace ?? 'global'],
          ['access_type', s.accessType ?? 'readwrite'],
        ];
        if (s.samplerIndex !== undefined) e.push(['sampler_index', s.samplerIndex], ['sampler_type', 'texture']);
        if (s.imageType) e.push(['image_type', s.imageType]);
        if (s.imageTransformable) e.push(['image_transformable', 'true']);
        out.push(e);
      }
      if (s.argType === 'buffer_address')
        out.push([
          ['arg_type', 'buffer_address'],
          ['offset', s.offset],
          ['size', s.size],
          ['arg_index', idx],
        ]);
      else if (s.addrmode !== 'stateful') {
        const e: [string, string | number][] = [
          ['arg_type', 'arg_bypointer'],
          ['offset', s.offset],
          ['size', s.size],
          ['arg_index', idx],
          ['addrmode', s.addrmode ?? 'stateless'],
          ['addrspace', s.addrspace ?? 'global'],
          ['access_type', s.accessType ?? 'readwrite'],
        ];
        if (s.slmAlignment !== undefined) e.push(['slm_alignment', s.slmAlignment]);
        out.push(e);
      }
      return out;
    }
    case 'arg_byvalue':
      if (s.pieces)
        return s.pieces.map((p) => [
          ['arg_type', 'arg_byvalue'],
          ['offset', p.offset],
          ['size', p.size],
          ['arg_index', idx],
          ['source_offset', p.sourceOffset],
        ]);
      return [
        [
          ['arg_type', 'arg_byvalue'],
          ['offset', s.offset],
          ['size', s.size],
          ['arg_index', idx],
        ],
      ];
    default:
      return [
        s.argIndex === undefined
          ? [
              ['arg_type', s.argType],
              ['offset', s.offset],
              ['size', s.size],
            ]
          : [
              ['arg_type', s.argType],
              ['offset', s.offset],
              ['size', s.size],
              ['arg_index', idx],
            ],
      ];
  }
}

/** The `payload_arguments` text of a slot list (empty without entries). */
function payloadText(args: readonly ZebinSlot[]): string {
  const entries = args.flatMap(zeEntries);
  if (!entries.length) return '';
  let text = '    payload_arguments:\n';
  for (const e of entries) e.forEach(([k, v], i) => (text += `${i === 0 ? '      - ' : '        '}${key(k, v)}\n`));
  return text;
}

/**
 * Kernels of one shape share their slot list (kernel-shape-memo.ts): its text is made once, and the same string
 * again lets the CLI's writer copy the bytes it encoded before (node-io.ts encodePieces).
 */
const payloadTexts = new WeakMap<readonly ZebinSlot[], string>();

/** The `kernels:` list, each kernel's name and `payload_arguments`. */
export function* emitZeInfoPieces(plan: StreamPlan<ZebinPlan>): Generator<string, void, undefined> {
  yield 'kernels:\n';
  for (const k of plan.kernels) {
    yield `  - ${key('name', k.name)}\n`;
    let text = payloadTexts.get(k.args);
    if (text === undefined) payloadTexts.set(k.args, (text = payloadText(k.args)));
    if (text) yield text;
  }
}

export function emitZeInfo(plan: ZebinPlan): string {
  return joinPieces(emitZeInfoPieces(plan));
}
