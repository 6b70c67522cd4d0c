import { readFileSync } from 'node:fs';
import type { CliIO } from '../../src/cli/io.js';
import { runCliWith } from '../../src/cli/main.js';
import { parseKernelMetadata } from '../support/tools.js';
import type { ClangFacts } from './clang-facts.js';

export const CORPUS_TARGETS = ['opencl', 'amdhsa-co4', 'amdhsa-co5', 'llvm', 'vulkan', 'amd-cl2'] as const;
export type CorpusTarget = (typeof CORPUS_TARGETS)[number];

/** Per kernel: undefined when kernarg matches clang (or, for vulkan and amd-cl2, plans it), else what differs. */
export interface TargetOutcome {
  readonly kernels: Map<string, string | undefined>;
  /** vulkan, amd-cl2: the documented target restriction (a KA4xxx code) that refused the file. */
  readonly restricted?: string;
}

const SPIR_ADDR: Record<number, string> = { 1: 'global', 2: 'constant', 3: 'local' };
const KIND_OF_VALUE_KIND: Record<string, string> = {
  global_buffer: 'buffer',
  dynamic_shared_pointer: 'local',
  by_value: 'value',
  image: 'image',
  sampler: 'sampler',
  queue: 'queue',
  pipe: 'pipe',
};

/** Runs `kernarg lower` exactly as a user would, with the host's flags pasted after the target's. */
export function kernarg(path: string, args: readonly string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
    color: false,
  };
  const code = runCliWith(['lower', path, ...args], io);
  return { code, stdout, stderr };
}

type Json = { kernels: { name: string; args: Record<string, unknown>[]; [k: string]: unknown }[] };

function firstError(stderr: string): string {
  return stderr.split('\n').find((l) => l.includes('error:')) ?? stderr.slice(0, 300);
}

function diff(pairs: [string, unknown, unknown][]): string | undefined {
  const bad = pairs.filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b));
  return bad.length
    ? bad.map(([w, a, b]) => `${w}: kernarg ${JSON.stringify(a)}, clang ${JSON.stringify(b)}`).join('; ')
    : undefined;
}

/** Every kernel clang reports, compared on one target. */
export function compareTarget(
  target: CorpusTarget,
  path: string,
  flags: readonly string[],
  facts: ClangFacts,
): TargetOutcome {
  const kernels = new Map<string, string | undefined>();
  const co = target === 'amdhsa-co4' ? 4 : 5;
  // Kernels under target macros differ: the AMD targets answer to clang's amdgcn kernels, the others to SPIR's.
  const amd = target.startsWith('amdhsa') || target === 'amd-cl2';
  const names = amd ? [...facts.amdhsa[co].keys()] : [...facts.spir.keys()];
  const refuseAll = (why: string) => {
    for (const n of names) kernels.set(n, why);
    return { kernels };
  };
  if (target === 'llvm') {
    const r = kernarg(path, ['--target', 'llvm', '--format', 'llvm-ir', '-cl-kernel-arg-info', ...flags]);
    if (r.code !== 0) return refuseAll(`kernarg exit ${r.code}: ${firstError(r.stderr)}`);
    const ours = parseKernelMetadata(r.stdout);
    for (const [name, md] of facts.spir) {
      const m = ours.get(name);
      kernels.set(
        name,
        m
          ? diff(
              (
                [
                  'addrSpace',
                  'accessQual',
                  'type',
                  'baseType',
                  'typeQual',
                  'argName',
                  'reqdWorkGroupSize',
                  'workGroupSizeHint',
                  'intelReqdSubGroupSize',
                  'vecTypeHint',
                ] as const
              ).map((k) => [k, m[k], md[k]]),
            )
          : 'kernel missing',
      );
    }
    for (const n of ours.keys()) if (!facts.spir.has(n)) kernels.set(n, 'kernel clang does not have');
    return { kernels };
  }
  const args = target.startsWith('amdhsa')
    ? ['--target', 'amdhsa', '--llvm', '16', '--code-object', String(co)]
    : ['--target', target];
  const r = kernarg(path, [...args, '--format', 'json', ...flags]);
  if (r.code !== 0) {
    if (
      (target === 'vulkan' || target === 'amd-cl2') &&
      r.code === 1 &&
      /\[KA4\d{3}\]/.test(r.stderr) &&
      !/\[KA[0-35]\d{3}\]/.test(r.stderr)
    ) {
      return { kernels: new Map(names.map((n) => [n, undefined])), restricted: firstError(r.stderr) };
    }
    return refuseAll(`kernarg exit ${r.code}: ${firstError(r.stderr)}`);
  }
  const plan = JSON.parse(r.stdout) as Json;
  const ours = new Map(plan.kernels.map((k) => [k.name, k]));
  for (const n of ours.keys()) if (!names.includes(n)) kernels.set(n, 'kernel clang does not have');
  for (const name of names) {
    const k = ours.get(name);
    if (!k) {
      kernels.set(name, 'kernel missing');
      continue;
    }
    if (target === 'vulkan' || target === 'amd-cl2') {
      kernels.set(name, undefined);
      continue;
    }
    const md = facts.spir.get(name)!;
    // A kernel only SPIR has (under __IMAGE_SUPPORT__, say) has no amdgcn kinds and sizes: SPIR's metadata alone checks
    // it.
    const hsa = facts.amdhsa[co].get(name);
    if (target === 'opencl') {
      const pairs: [string, unknown, unknown][] = [['args', k.args.length, md.type.length]];
      k.args.forEach((a, i) => {
        const kind = hsa ? KIND_OF_VALUE_KIND[hsa.args[i]?.['.value_kind'] ?? ''] : a.kind;
        pairs.push(
          [`${i} name`, a.name, md.argName[i]],
          [`${i} type`, a.typeName, md.type[i]],
          [`${i} qual`, a.typeQual, md.typeQual[i]],
          [`${i} kind`, a.kind, kind],
        );
        if (kind === 'buffer' || kind === 'local')
          pairs.push([`${i} space`, a.addressSpace, SPIR_ADDR[md.addrSpace[i]]]);
        if (kind === 'image' || kind === 'pipe') pairs.push([`${i} access`, a.access, md.accessQual[i]]);
        if (kind === 'value' && hsa) pairs.push([`${i} size`, a.size, Number(hsa.args[i]['.size'])]);
      });
      pairs.push(
        ['reqd_work_group_size', k.reqdWorkGroupSize, md.reqdWorkGroupSize],
        ['work_group_size_hint', k.workGroupSizeHint, md.workGroupSizeHint],
      );
      kernels.set(name, diff(pairs));
      continue;
    }
    if (!hsa) throw new Error(`unreachable: ${name} is one of clang's amdgcn kernels`);
    const slots = (list: Record<string, unknown>[]) =>
      list.map((a) => `${a.offset}:${a.size}:${a.valueKind}${a.param === null ? '' : ':' + a.name}`);
    const theirs = hsa.args.map(
      (a) =>
        `${a['.offset']}:${a['.size']}:${a['.value_kind']}${a['.value_kind']!.startsWith('hidden') ? '' : ':' + a['.name']}`,
    );
    kernels.set(
      name,
      diff([
        ['slots', slots(k.args), theirs],
        ['segment size', String(k.kernargSegmentSize), hsa.props['.kernarg_segment_size']],
        ['segment align', String(k.kernargSegmentAlign), hsa.props['.kernarg_segment_align']],
      ]),
    );
  }
  return { kernels };
}
