import { AMDGCN } from '../../layout/data-layout.js';
import type { AmdCl2Plan } from '../../abi/plan.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { declareFlags } from '../flag-declarations.js';
import type { Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { emitClrx, emitClrxPieces } from './clrx.js';
import { AMD_CL2_FEATURES, amdCl2Kernelwise, amdCl2MayReport, lowerAmdCl2 } from './lower.js';
import { amdCl2Table, amdCl2TablePieces } from './table.js';
import { readAmdCl2Plan } from './schema.js';
import { AMD_CL2_VOCABULARY, amdCl2View } from './view.js';

const BITS = [64, 32] as const;
const DRIVERS = ['new', 'old'] as const;

/** AMD Catalyst's OpenCL 2.0 argument buffer, as CLRX describes it. */
export const amdCl2Target: Target<AmdCl2Plan, 'segment'> = {
  name: 'amd-cl2',
  title: 'AMD OpenCL 2.0 (CLRX)',
  summary: "AMD Catalyst's OpenCL 2.0 argument buffer (CLRX): setup arguments, offsets, user SGPRs",
  flags: declareFlags('amdCl2', [
    { kind: 'choice', key: 'bits', flag: 'bits', choices: BITS, default: 64, help: 'pointer and setup-argument width' },
    {
      kind: 'choice',
      key: 'driver',
      flag: 'driver',
      choices: DRIVERS,
      default: 'new',
      help: 'AMD driver generation, new from 191205',
    },
    {
      kind: 'words',
      key: 'use',
      flag: 'use',
      choices: AMD_CL2_FEATURES,
      repeatable: false,
      noun: 'feature',
      default: 'args',
      help: 'enabled features, comma-separated',
    },
    { kind: 'boolean', key: 'gfx9', flag: 'gfx9', help: 'user SGPR counts of GFX9 (Vega)' },
  ]),
  formats: ['table', 'json', 'clrx'],
  layout: () => AMDGCN,
  predefines: () => [],
  flagConflict: () => undefined,
  optionProblem: () => undefined,
  table: amdCl2Table,
  vocabulary: AMD_CL2_VOCABULARY,
  view: amdCl2View,
  readPlan: readAmdCl2Plan,
  // The argument buffer.
  pack: planPacking('segment', (k) => ({ segment: k.kernargSize, pushConstants: 0 })),
  lower(module, o, diags) {
    const plan = lowerAmdCl2(module, o.amdCl2 ?? {}, diags);
    if (!plan) return undefined;
    return {
      plan,
      render(format) {
        if (format === 'json') return emitJson(plan);
        if (format === 'clrx') return emitClrx(plan);
        return amdCl2Table(plan);
      },
      pieces(format) {
        if (format === 'table') return amdCl2TablePieces(plan);
        if (format === 'clrx') return emitClrxPieces(plan);
        return undefined;
      },
    };
  },
  kernelwise: {
    formats: ['table', 'json', 'clrx'],
    lower(module, o) {
      return {
        ...amdCl2Kernelwise(module, o.amdCl2 ?? {}),
        // An argument CLRX has no type for is refused as its kernel is lowered: not quiet where a kernel takes one.
        quiet: !amdCl2MayReport(module, o.amdCl2 ?? {}),
        pieces(plan, format) {
          if (format === 'json') return emitJsonPieces(plan);
          if (format === 'clrx') return emitClrxPieces(plan);
          return amdCl2TablePieces(plan);
        },
      };
    },
  },
};
