import { SPIR64 } from '../../layout/data-layout.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { declareFlags } from '../flag-declarations.js';
import { type Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { choiceProblem } from '../option-problem.js';
import { ZEBIN_DEFAULT_DEVICE, ZEBIN_DEVICES, zebinPredefines } from './devices.js';
import { lowerZebin, zebinKernelwise, zebinMayReport } from './lower.js';
import type { ZebinPlan } from './plan.js';
import { readZebinPlan } from './schema.js';
import { zebinTable, zebinTablePieces } from './table.js';
import { ZEBIN_VOCABULARY, zebinView } from './view.js';
import { emitZeInfo, emitZeInfoPieces } from './ze-info.js';

/** Intel GPUs (Level Zero and Intel's OpenCL): IGC's cross-thread payload, as a zebin's `.ze_info` lists it. */
export const zebinTarget: Target<ZebinPlan, 'segment'> = {
  name: 'zebin',
  title: 'Intel zebin (IGC)',
  summary: "Intel GPUs' cross-thread payload (IGC's zebin .ze_info): explicit and implicit payload arguments",
  flags: declareFlags('zebin', [
    {
      kind: 'choice',
      key: 'device',
      flag: 'device',
      choices: ZEBIN_DEVICES,
      default: ZEBIN_DEFAULT_DEVICE,
      help: "the Intel GPU, as ocloc's -device names it",
    },
    {
      kind: 'boolean',
      key: 'privateMemory',
      flag: 'private-memory',
      help:
        'the kernels keep private memory (arrays IGC does not promote to registers): IGC then passes ' +
        'private_base_stateless',
    },
  ]),
  formats: ['table', 'json', 'ze-info'],
  layout: () => SPIR64,
  predefines: (o) => zebinPredefines(o.zebin?.device ?? ZEBIN_DEFAULT_DEVICE),
  flagConflict: () => undefined,
  optionProblem: (o) => choiceProblem('zebin.device', o.zebin?.device, ZEBIN_DEVICES),
  table: zebinTable,
  vocabulary: ZEBIN_VOCABULARY,
  view: zebinView,
  readPlan: readZebinPlan,
  // The cross-thread payload (binding-table entries are the driver's, not bytes here).
  pack: planPacking('segment', (k) => ({ segment: k.payloadSize, pushConstants: 0 })),
  lower(module, o, diags) {
    const errors = diags.hasErrors;
    const plan = lowerZebin(module, o.zebin?.device ?? ZEBIN_DEFAULT_DEVICE, diags, o.zebin?.privateMemory ?? false);
    // A kernel ocloc would refuse (double on TGL/DG2, over 2 KiB of arguments): no plan, as no binary.
    if (diags.hasErrors && !errors) return undefined;
    return {
      plan,
      render(format) {
        if (format === 'json') return emitJson(plan);
        if (format === 'ze-info') return emitZeInfo(plan);
        return zebinTable(plan);
      },
      pieces(format) {
        if (format === 'table') return zebinTablePieces(plan);
        if (format === 'ze-info') return emitZeInfoPieces(plan);
        return undefined;
      },
    };
  },
  kernelwise: {
    formats: ['table', 'json', 'ze-info'],
    lower(module, o, diags) {
      const device = o.zebin?.device ?? ZEBIN_DEFAULT_DEVICE;
      return {
        ...zebinKernelwise(module, device, diags, o.zebin?.privateMemory ?? false),
        // A kernel ocloc would refuse (double on TGL/DG2, over 2 KiB of arguments) is reported as it is lowered: not
        // quiet where a kernel may be.
        quiet: !zebinMayReport(module, device),
        pieces(plan, format) {
          if (format === 'json') return emitJsonPieces(plan);
          if (format === 'ze-info') return emitZeInfoPieces(plan);
          return zebinTablePieces(plan);
        },
      };
    },
  },
};
