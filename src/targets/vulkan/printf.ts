/**
 * clspv's printf (lib/PrintfPass.cpp): each printf call's id, format and argument sizes, written
 * to a printf buffer that reflection data describes.
 */
import type { CallArgs, KernelModule } from '../../model/kernel-module.js';

/**
 * One printf call (or one string literal printed with %s): its id, its format, the bytes each argument takes in the
 * buffer.
 */
export interface PrintfInfo {
  readonly id: number;
  readonly format: string;
  readonly argSizes: readonly number[];
  readonly reflection: 'PrintfInfo';
}

export type PrintfBuffer =
  | {
      readonly reflection: 'PrintfBufferStorageBuffer';
      readonly descriptorSet: number;
      readonly binding: 0;
      readonly bufferSize: number;
    }
  | {
      readonly reflection: 'PrintfBufferPointerPushConstant';
      readonly pushConstantOffset: number;
      readonly size: 8;
      readonly bufferSize: number;
    };

/** clspv's `-printf-buffer-size` default: 1 MiB (lib/Option.cpp). */
export const DEFAULT_PRINTF_BUFFER_SIZE = 1024 << 10;

/**
 * The argument bytes one conversion specification takes, or undefined for `%%`; `literal`: the argument is a string
 * literal.
 */
function conversionSize(
  vector: number | undefined,
  length: string,
  conv: string,
  literal: boolean,
  pointerBytes: number,
): number {
  if (conv === 's') return literal ? 4 : pointerBytes;
  if (conv === 'p') return pointerBytes;
  const float = 'fFeEgGaA'.includes(conv);
  if (vector !== undefined) {
    const element = { hh: 1, h: 2, hl: 4, l: 8, ll: 8, '': float ? 4 : 4 }[length] ?? 4;
    return Math.max(4, vector * element);
  }
  // Default argument promotions: char and short travel as int, float as double.
  if (float) return 8;
  return length === 'l' || length === 'll' ? 8 : 4;
}

/**
 * The buffer bytes of each printf argument, from the format's conversion specifications (what
 * clspv's PrintfPass stores: max(4, the promoted argument's store size); a string literal argument
 * is stored as its 4-byte printf id). Returns the 1-based number of the first argument without a conversion, if one has
 * none.
 */
export function printfArgSizes(
  format: string,
  args: readonly { readonly string?: string }[],
  pointerBytes: number,
): number[] | { readonly unconverted: number } {
  const sizes: number[] = [];
  const spec = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(?:v(2|3|4|8|16))?(hh|hl|h|ll|l)?([diouxXcsfFeEgGaAp%])/g;
  for (const m of format.matchAll(spec)) {
    if (m[6] === '%') continue;
    if (m[2] === '*') sizes.push(4);
    if (m[3] === '*') sizes.push(4);
    const arg = args[sizes.length];
    sizes.push(
      conversionSize(
        m[4] === undefined ? undefined : Number(m[4]),
        m[5] ?? '',
        m[6],
        arg?.string !== undefined,
        pointerBytes,
      ),
    );
  }
  if (args.length > sizes.length) return { unconverted: sizes.length + 1 };
  return sizes.slice(0, args.length);
}

/**
 * clspv's printf ids in module order: each call with a literal format gets the next id, then each
 * string literal it prints gets its own id (stored in place of the string). Calls whose format is
 * not a literal are left alone, as clspv leaves them.
 */
export function printfInfos(
  module: KernelModule,
  pointerBytes: number,
  report: (call: CallArgs, unconverted: number) => void,
): PrintfInfo[] {
  const out: PrintfInfo[] = [];
  let id = 0;
  for (const f of module.functions) {
    for (const call of f.callArgs ?? []) {
      if (call.name !== 'printf') continue;
      const format = call.args[0]?.string;
      if (format === undefined) continue;
      const rest = call.args.slice(1);
      const sizes = printfArgSizes(format, rest, pointerBytes);
      if (!Array.isArray(sizes)) {
        report(call, sizes.unconverted);
        continue;
      }
      out.push({ id: id++, format, argSizes: sizes, reflection: 'PrintfInfo' });
      for (const a of rest)
        if (a.string !== undefined) out.push({ id: id++, format: a.string, argSizes: [], reflection: 'PrintfInfo' });
    }
  }
  return out;
}
