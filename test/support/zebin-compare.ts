// kernarg's zebin payload against ocloc's, kernel by kernel: both read as `.ze_info` payload entries.
import { existsSync, readFileSync } from 'node:fs';
import { lower } from '../../src/lower.js';
import type { ZebinDevice } from '../../src/targets/zebin/devices.js';
import type { LowerOptions } from '../../src/targets/options.js';
import { type OclocResult, type ZeEntry, entryText, payloadArguments } from './zebin-oracle.js';

/** What one kernel's comparison found: undefined when equal, else the first difference. */
export type KernelOutcome = string | undefined;

export interface FileOutcome {
  /** Per kernel ocloc compiled: undefined (equal) or the difference. */
  readonly kernels: Map<string, KernelOutcome>;
  /** Why ocloc refused the file (then `kernels` is empty). */
  readonly oclocRefused?: string;
  /**
   * Why kernarg refused the file (its first error): where ocloc compiled it, a difference; where ocloc refused it too,
   * agreement.
   */
  readonly kernargRefused?: string;
  /**
   * Kernels (among those `kernels` lists as equal) that equal ocloc only with --private-memory:
   * IGC kept private memory the source does not show (test/deliberate/zebin-private-memory.md).
   */
  readonly privateMemory: Set<string>;
}

/**
 * On TGL and DG2, IGC passes a global or constant buffer either statelessly (`arg_bypointer`,
 * `addrmode: stateless`) or, where it promoted every access to the binding table, as
 * `buffer_address`: the same 8 bytes (the buffer's address) at the same offset, chosen by an
 * analysis of the accesses kernarg does not make (test/deliberate/zebin-buffer-promotion.md).
 * Both read here as one `address` entry, on those devices only.
 */
function normalized(e: ZeEntry, device: string): string {
  if (device === 'pvc') return entryText(e);
  const get = (k: string) => e.find(([key]) => key === k)?.[1];
  const type = get('arg_type');
  const space = get('addrspace');
  if (
    type === 'buffer_address' ||
    (type === 'arg_bypointer' && get('addrmode') === 'stateless' && (space === 'global' || space === 'constant'))
  ) {
    return `address offset=${get('offset')} size=${get('size')} arg_index=${get('arg_index')}`;
  }
  return entryText(e);
}

/** The payload entries of every kernel, kernarg's against ocloc's. */
export function compareZebin(
  path: string,
  source: string,
  options: Omit<LowerOptions, 'target' | 'format'>,
  device: string,
  ocloc: OclocResult,
): FileOutcome {
  const host = { readFile: (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined) };
  if ('refused' in ocloc) {
    const mine = lower(path, source, host, {
      ...options,
      target: 'zebin',
      format: 'json',
      zebin: { device: device as ZebinDevice },
    });
    const kernargRefused =
      mine.output === undefined
        ? (mine.diagnostics.find((d) => d.severity === 'error')?.message ?? 'no output')
        : undefined;
    return {
      kernels: new Map(),
      oclocRefused: ocloc.refused,
      ...(kernargRefused ? { kernargRefused } : {}),
      privateMemory: new Set(),
    };
  }
  const theirs = payloadArguments(ocloc.zeInfo);
  const r = lower(path, source, host, {
    ...options,
    target: 'zebin',
    format: 'ze-info',
    zebin: { device: device as ZebinDevice },
  });
  if (r.output === undefined)
    return {
      kernels: new Map(),
      kernargRefused: r.diagnostics.find((d) => d.severity === 'error')?.message ?? 'no output',
      privateMemory: new Set(),
    };
  const ours = payloadArguments(r.output);
  const withPrivate = lower(path, source, host, {
    ...options,
    target: 'zebin',
    format: 'ze-info',
    zebin: { device: device as ZebinDevice, privateMemory: true },
  });
  const oursPrivate = payloadArguments(withPrivate.output ?? '');
  const privateMemory = new Set<string>();
  const kernels = new Map<string, KernelOutcome>();
  for (const [name, entries] of theirs) {
    const mine = ours.get(name);
    if (!mine) {
      kernels.set(name, 'kernarg has no such kernel');
      continue;
    }
    const b = entries.map((e) => normalized(e, device));
    const why = firstDifference(
      mine.map((e) => normalized(e, device)),
      b,
    );
    if (
      why !== undefined &&
      firstDifference(
        (oursPrivate.get(name) ?? []).map((e) => normalized(e, device)),
        b,
      ) === undefined
    ) {
      privateMemory.add(name);
      kernels.set(name, undefined);
    } else kernels.set(name, why);
  }
  for (const name of ours.keys()) if (!theirs.has(name)) kernels.set(name, 'ocloc has no such kernel');
  return { kernels, privateMemory };
}

function firstDifference(a: readonly string[], b: readonly string[]): string | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `entry ${i}: kernarg ${a[i] ?? '(none)'} | ocloc ${b[i] ?? '(none)'}`;
  }
  return undefined;
}
