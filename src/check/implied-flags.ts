// The lower options a compiled kernel implies, as its target's flags: `kernarg check` lowers the
// source with these, then with the flags the user gave (which come later on the command line and
// so win: a `--code-object 5` checks a code object 6 file against the code object 5 prediction).
import { assertNever } from '../assert-never.js';
import type { AbiPlan } from '../targets/index.js';

/** The target flags that make `lower` predict the plan this binary was compiled to. */
export function impliedFlags(plan: AbiPlan): string[] {
  switch (plan.target) {
    // The note's code object version; the LLVM generation from the `.comment` section (22 when none); the processor
    // from e_flags.
    case 'amdhsa':
      return ['--code-object', String(plan.codeObject), '--llvm', String(plan.llvm), '--mcpu', plan.mcpu];
    // `.address_size 32|64`; nvcl's bare `.entry` is NVIDIA's OpenCL, `.visible .entry` the CUDA driver interface pocl
    // uses.
    case 'cuda':
      return ['--arch', plan.arch, '--local-memory', plan.localMemory];
    // The device from the ELF's Intel GT note / machine flags.
    case 'zebin':
      return ['--device', plan.device];
    // The addressing model: Physical32 is spir, Physical64 spir64.
    case 'opencl':
    case 'vulkan':
      return ['--arch', plan.arch];
    // No reader makes these plans; a plan read from JSON of these targets implies nothing beyond the target.
    case 'amd-cl2':
    case 'llvm':
    case 'r600':
      return [];
    default:
      return assertNever(plan);
  }
}
