import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { declareFlags } from '../flag-declarations.js';
import type { Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { choiceProblem } from '../option-problem.js';
import type { CudaPlan } from './plan.js';
import { CUDA_ARCHES, CUDA_LOCAL_MEMORY, cudaKernelwise, cudaLayout, cudaMayReport, lowerCuda } from './lower.js';
import { CUDA_SMS, DEFAULT_CUDA_SM } from './param-base.js';
import { emitPtxEntries, emitPtxEntryPieces } from './ptx.js';
import { cudaPredefines } from './predefines.js';
import { cudaTable, cudaTablePieces } from './table.js';
import { readCudaPlan } from './schema.js';
import { CUDA_VOCABULARY, cudaView } from './view.js';

/** NVIDIA's PTX `.param` space: what NVIDIA's OpenCL, pocl's CUDA driver and the CUDA driver API launch with. */
export const cudaTarget: Target<CudaPlan, 'segment'> = {
  name: 'cuda',
  title: 'CUDA (PTX .param)',
  summary:
    "the PTX .entry parameters as clang's NVPTX backend declares them, and their offsets in CUDA's parameter buffer",
  flags: declareFlags('cuda', [
    {
      kind: 'choice',
      key: 'arch',
      flag: 'arch',
      choices: CUDA_ARCHES,
      default: 'nvptx64',
      help: 'device address width values are sized with',
    },
    {
      kind: 'choice',
      key: 'sm',
      flag: 'sm',
      choices: CUDA_SMS,
      default: DEFAULT_CUDA_SM,
      help:
        'the GPU architecture (sm_XX) whose driver places the parameter buffer: where parameters aligned above ' +
        '16 go (0x160 of constant bank 0 on 75-89, 0x210 on 90, from 0 on 100 and later); the default, 90, is the one ' +
        'checked against a driver',
    },
    {
      kind: 'choice',
      key: 'localMemory',
      flag: 'local-memory',
      choices: CUDA_LOCAL_MEMORY,
      default: 'nvidia',
      help:
        "how local pointer arguments become dynamic shared memory: NVIDIA's OpenCL (.ptr .shared addresses) or " +
        "pocl's CUDA driver (32-bit offsets, plus _work_dim and _global_offset_x/y/z)",
    },
  ]),
  formats: ['table', 'json', 'ptx'],
  layout: (o) => cudaLayout(o.cuda?.arch),
  predefines: (o) => cudaPredefines(o.std),
  flagConflict: () => undefined,
  optionProblem: (o) =>
    choiceProblem('cuda.arch', o.cuda?.arch, CUDA_ARCHES) ??
    choiceProblem('cuda.sm', o.cuda?.sm, CUDA_SMS) ??
    choiceProblem('cuda.localMemory', o.cuda?.localMemory, CUDA_LOCAL_MEMORY),
  table: cudaTable,
  vocabulary: CUDA_VOCABULARY,
  view: cudaView,
  readPlan: readCudaPlan,
  // The packed parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER).
  pack: planPacking('segment', (k) => ({ segment: k.paramBytes, pushConstants: 0 })),
  lower(module, o, diags) {
    const plan = lowerCuda(module, o.cuda ?? {}, diags);
    if (!plan) return undefined;
    return {
      plan,
      render(format) {
        if (format === 'json') return emitJson(plan);
        if (format === 'ptx') return emitPtxEntries(plan);
        return cudaTable(plan);
      },
      pieces(format) {
        if (format === 'table') return cudaTablePieces(plan);
        if (format === 'ptx') return emitPtxEntryPieces(plan);
        return undefined;
      },
    };
  },
  kernelwise: {
    formats: ['table', 'json', 'ptx'],
    lower(module, o, diags) {
      return {
        ...cudaKernelwise(module, o.cuda ?? {}, diags),
        // A kernel's parameters can be refused, or pass CUDA's limit, as it is lowered: not quiet where one may.
        quiet: !cudaMayReport(module, o.cuda ?? {}),
        pieces(plan, format) {
          if (format === 'json') return emitJsonPieces(plan);
          if (format === 'ptx') return emitPtxEntryPieces(plan);
          return cudaTablePieces(plan);
        },
      };
    },
  },
};
