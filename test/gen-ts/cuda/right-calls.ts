// Calls (test/gen-ts-cuda.test.ts) through the bindings of scripts/gpu-cuda/launch-kernels.ptx (launch.ts) and of a
// hand-built
// cubin (cubin.ts) that strict tsc must accept.
import type { CudaBuffer, CudaContext } from 'kernarg/runtime';
import { load } from './launch.js';
import { load as loadCubin } from './cubin.js';

declare const ctx: CudaContext;
declare const floats: CudaBuffer<Float32Array>;
declare const ints: CudaBuffer<Int32Array>;
const k = load(ctx, { form: 'extra' });
const bytes16 = [0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64] as const;
const ms: number = k.mixed.launch({
  args: {
    mixed_param_0: floats,
    mixed_param_1: ints,
    mixed_param_2: 249,
    mixed_param_3: 0.25,
    mixed_param_4: bytes16,
    mixed_param_5: new Array<number>(24).fill(0),
  },
  global: [256],
  local: [64],
});
k.bank.enqueue({
  args: {
    bank_param_0: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    bank_param_1: new Array<number>(32).fill(1),
    bank_param_2: ints,
  },
  global: [32],
  form: 'params',
});
k.empty.launch({ args: { empty_param_0: floats, empty_param_1: 7, empty_param_2: bytes16 }, global: [1] });
const c = loadCubin(ctx);
// A cubin's 8-byte integer parameters take a buffer or a number (it cannot tell a pointer from a long).
c.mixed.launch({
  args: { mixed_param_0: floats, mixed_param_1: 3, mixed_param_2: 5n, mixed_param_3: bytes16, mixed_param_4: bytes16 },
  global: [1],
});
export { ms };
