// Calls strict tsc must refuse, each on the line after its @ts-expect-error.
import type { CudaBuffer, CudaContext } from 'kernarg/runtime';
import { load } from './launch.js';

declare const ctx: CudaContext;
declare const floats: CudaBuffer<Float32Array>;
declare const ints: CudaBuffer<Int32Array>;
const k = load(ctx);
const bytes16 = [0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64] as const;
const args = { mixed_param_0: floats, mixed_param_1: ints, mixed_param_2: 249, mixed_param_3: 0.25, mixed_param_4: bytes16, mixed_param_5: new Array<number>(24).fill(0) };
// @ts-expect-error a number where a .ptr parameter takes a buffer
k.mixed.launch({ args: { ...args, mixed_param_0: 5 }, global: [1] });
// @ts-expect-error a string for a .u8
k.mixed.launch({ args: { ...args, mixed_param_2: 'a' }, global: [1] });
// @ts-expect-error 15 bytes for a .b8[16]
k.mixed.launch({ args: { ...args, mixed_param_4: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }, global: [1] });
// @ts-expect-error an argument left out
k.bank.launch({ args: { bank_param_0: new Array<number>(13).fill(0), bank_param_1: [] }, global: [1] });
// @ts-expect-error an argument the kernel does not take
k.empty.launch({ args: { empty_param_0: floats, empty_param_1: 1, empty_param_2: bytes16, extra: 1 }, global: [1] });
// @ts-expect-error no such kernel
k.nothing.launch({ args: {}, global: [1] });
// @ts-expect-error no such parameter form
k.empty.enqueue({ args: { empty_param_0: floats, empty_param_1: 1, empty_param_2: bytes16 }, global: [1], form: 'buffer' });
