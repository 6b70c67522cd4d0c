// `kernarg run --api cuda --args <file.json>` against a cuda plan: values in their layout, and
// buffers for pointer parameters. A plan read from PTX or a cubin has no OpenCL C types: a `.ptr`
// parameter takes a buffer, and so does an integer parameter of the pointer's width (nvcc's and
// Triton's PTX declare every pointer as `.u64`), which otherwise takes a number.
import type { CudaKernelPlan, CudaSlot } from '../../targets/cuda/plan.js';
import { PackError, ValueError } from '../../pack/errors.js';
import { writeInterpreted } from '../../pack/interpreted.js';
import { didYouMean } from '../../text/closest-name.js';
import { ArgProblems } from './arg-problems.js';
import { type HostLimits, ELEMENT_TYPES, describeJson, hostArray } from './host-data.js';
import { type ArgInput, jsonValue } from './read-args.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const BUFFER_FORM = '{"buffer": "<element type>", "data": [...]} or {"buffer": "<element type>", "size": <elements>}';

/** Reads every argument of a cuda kernel, all mistakes thrown together (an ArgsError) as readOpenCLArgs does. */
export function readCudaArgs(
  json: unknown,
  plan: CudaKernelPlan,
  pointerBytes: 4 | 8,
  limits: HostLimits,
): Map<string, ArgInput> {
  const kernel = plan.name;
  if (!isObject(json))
    throw new PackError(
      kernel,
      '(arguments)',
      `the arguments file must hold an object mapping parameter names to values, got ${describeJson(json)}`,
    );
  const slots = plan.args.filter((a) => a.param !== null);
  const names = slots.map((a) => a.name);
  const problems = new ArgProblems();
  for (const k of Object.keys(json))
    if (!names.includes(k))
      problems.add(
        new PackError(
          kernel,
          k,
          `'${kernel}' has no argument '${k}' (it takes ${names.join(', ') || 'none'})${didYouMean(
            k,
            names.filter((n) => !Object.hasOwn(json, n)),
          )}`,
        ),
      );
  const out = new Map<string, ArgInput>();
  for (const slot of slots) {
    if (problems.full) break;
    if (!Object.hasOwn(json, slot.name)) {
      problems.add(new PackError(kernel, slot.name, 'missing'));
      continue;
    }
    const arg = problems.check(() => readArg(kernel, slot, json[slot.name], pointerBytes, limits));
    if (arg) out.set(slot.name, arg);
  }
  problems.throwIfAny();
  return out;
}

/** Whether a value parameter is an integer of the pointer's width: it takes a buffer as well as a number. */
export function takesBuffer(slot: CudaSlot, pointerBytes: 4 | 8): boolean {
  if (slot.role === 'data') return true;
  return slot.role === 'value' && slot.ptxType === (pointerBytes === 8 ? 'u64' : 'u32') && slot.typeName === undefined;
}

function readArg(kernel: string, slot: CudaSlot, v: unknown, pointerBytes: 4 | 8, limits: HostLimits): ArgInput {
  const path = slot.name;
  if (slot.role === 'local')
    throw new PackError(kernel, path, "kernarg's CUDA host does not place local (shared-memory) arguments");
  if (isObject(v) && Object.hasOwn(v, 'buffer') && takesBuffer(slot, pointerBytes)) {
    for (const k of Object.keys(v))
      if (!['buffer', 'data', 'size'].includes(k))
        throw new PackError(
          kernel,
          `${path}.${k}`,
          `unexpected key '${k}' (a buffer takes buffer, data, size)${didYouMean(k, ['buffer', 'data', 'size'])}`,
        );
    const element = v.buffer;
    if (typeof element !== 'string' || !ELEMENT_TYPES.has(element))
      throw new PackError(
        kernel,
        `${path}.buffer`,
        `unknown element type ${describeJson(element)} (use ${[...ELEMENT_TYPES.keys()].join(', ')})`,
      );
    const own = (k: string) => (Object.hasOwn(v, k) ? v[k] : undefined);
    return { kind: 'buffer', element, data: hostArray(kernel, path, element, own('data'), own('size'), limits) };
  }
  if (slot.role === 'data')
    throw new PackError(
      kernel,
      path,
      `a ${slot.space ?? 'global'} pointer takes ${BUFFER_FORM}, got ${describeJson(v)}`,
    );
  if (!slot.layout)
    throw new PackError(
      kernel,
      path,
      `kernarg run cannot make a value for this parameter (${slot.typeName ?? slot.ptxType})`,
    );
  const value = jsonValue(kernel, path, slot.layout, v);
  // Written once into scratch bytes, as the packer will write it: every mistake found before the launch.
  try {
    writeInterpreted(new DataView(new ArrayBuffer(slot.layout.size)), 0, slot.layout, value, path);
  } catch (e) {
    if (e instanceof ValueError) throw new PackError(kernel, e.path, e.problem);
    throw e;
  }
  return { kind: 'value', value };
}
