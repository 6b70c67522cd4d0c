// A CUDA driver in JS for the host's tests on machines without one: device memory is host bytes
// at made-up addresses, cuFuncGetParamInfo answers from a table given per kernel (what a real
// driver said), and cuLaunchKernel reads what the host handed it the way the driver does, through
// the native pointers: `kernelParams` one pointer per parameter, each read for the driver's size,
// or `extra`'s buffer pointer and size cell. Each launch is recorded, and runs a JS body if given.
import { createRequire } from 'node:module';
import type Koffi from 'koffi';
import type { CuHandle, CudaDriver } from '../../src/runtime/cuda/driver.js';

const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
/** CUDA_ERROR_INVALID_HANDLE: what the mock answers for a destroyed (or never made) event. */
const INVALID_HANDLE = 400;

export interface MockKernel {
  /** cuFuncGetParamInfo's answers: offset and size of each parameter. */
  readonly params: readonly { readonly offset: number; readonly size: number }[];
  /** Runs the launch on the mock's memory: each parameter's bytes, the grid and block. */
  readonly body?: (
    params: readonly Uint8Array[],
    memory: MockMemory,
    grid: readonly number[],
    block: readonly number[],
  ) => void;
}

export interface MockLaunch {
  readonly kernel: string;
  readonly form: 'params' | 'extra';
  /** Each parameter's bytes as the driver read them (extra: sliced from the buffer at the driver's offsets). */
  readonly params: Uint8Array[];
  /** extra: the whole buffer; kernelParams: each pointer's distance from the first. */
  readonly buffer?: Uint8Array;
  readonly pointerOffsets?: number[];
  readonly grid: number[];
  readonly block: number[];
  /** cuLaunchKernel's sharedMemBytes. */
  readonly shared: number;
}

export class MockMemory {
  /** `base`: the first block's address (a 64-bit driver's are past 4 GiB; a low one plays what 32-bit code can reach). */
  constructor(private next = 0x7f00_0000_0000n) {}
  readonly blocks = new Map<bigint, Uint8Array>();
  alloc(size: number): bigint {
    const at = this.next;
    this.blocks.set(at, new Uint8Array(size));
    this.next += BigInt(Math.ceil(size / 256) * 256 + 256);
    return at;
  }
  /** The bytes at a device address (the start of a block, or inside one). */
  at(address: bigint, size: number): Uint8Array {
    for (const [base, bytes] of this.blocks) {
      if (address >= base && address + BigInt(size) <= base + BigInt(bytes.length)) {
        const o = Number(address - base);
        return bytes.subarray(o, o + size);
      }
    }
    throw new Error(`mock CUDA: no device memory at 0x${address.toString(16)} for ${size} bytes`);
  }
}

export interface MockCuda extends CudaDriver {
  readonly launches: MockLaunch[];
  readonly memory: MockMemory;
  /** Every call by name, in order (what a host did). */
  readonly calls: string[];
}

/**
 * A mock driver with the given kernels; `withParamInfo: false` plays a driver before 12.4; `cc` the
 * device's compute capability (default 9.0); `staticShared` CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
 * `memoryBase` the address of the first allocation.
 */
export function mockCuda(
  kernels: Readonly<Record<string, MockKernel>>,
  options: {
    withParamInfo?: boolean;
    cc?: readonly [number, number];
    staticShared?: number;
    memoryBase?: bigint;
  } = {},
): MockCuda {
  const memory = new MockMemory(options.memoryBase);
  const launches: MockLaunch[] = [];
  const calls: string[] = [];
  const functions = new Map<CuHandle, string>();
  const events = new Set<CuHandle>();
  const ok = (name: string) => {
    calls.push(name);
    return 0;
  };
  const attrs: Record<number, number> = {
    1: 1024,
    2: 1024,
    3: 1024,
    4: 64,
    5: 2 ** 31 - 1,
    6: 65535,
    7: 65535,
    75: options.cc?.[0] ?? 9,
    76: options.cc?.[1] ?? 0,
  };
  const driver: MockCuda = {
    library: 'mock libcuda',
    launches,
    memory,
    calls,
    Init: () => ok('cuInit'),
    DriverGetVersion: (out) => ((out[0] = 12040), ok('cuDriverGetVersion')),
    DeviceGetCount: (out) => ((out[0] = 1), ok('cuDeviceGetCount')),
    DeviceGet: (out, i) => ((out[0] = i), ok('cuDeviceGet')),
    DeviceGetName: (out) => (out.write('Mock GPU\0'), ok('cuDeviceGetName')),
    DeviceTotalMem: (out) => ((out[0] = 1n << 30n), ok('cuDeviceTotalMem')),
    DeviceGetAttribute: (out, a) => ((out[0] = attrs[a] ?? 0), ok('cuDeviceGetAttribute')),
    DevicePrimaryCtxRetain: (out) => ((out[0] = { ctx: 1 }), ok('cuDevicePrimaryCtxRetain')),
    DevicePrimaryCtxRelease: () => ok('cuDevicePrimaryCtxRelease'),
    CtxSetCurrent: () => ok('cuCtxSetCurrent'),
    CtxSynchronize: () => ok('cuCtxSynchronize'),
    ModuleLoadDataEx: (out) => ((out[0] = { module: 1 }), ok('cuModuleLoadDataEx')),
    ModuleUnload: () => ok('cuModuleUnload'),
    ModuleGetFunction: (out, _m, name) => {
      if (!(name in kernels)) return 500;
      out[0] = { fn: name };
      functions.set(out[0], name);
      return ok('cuModuleGetFunction');
    },
    FuncGetAttribute: (out, a) => ((out[0] = a === 1 ? (options.staticShared ?? 0) : 0), ok('cuFuncGetAttribute')),
    MemAlloc: (out, bytes) => ((out[0] = memory.alloc(bytes)), ok('cuMemAlloc')),
    MemFree: () => ok('cuMemFree'),
    MemcpyHtoD: (dst, src, bytes) => (
      memory.at(dst, bytes).set(new Uint8Array(src.buffer, src.byteOffset, bytes)),
      ok('cuMemcpyHtoD')
    ),
    MemcpyDtoH: (dst, src, bytes) => (
      new Uint8Array(dst.buffer, dst.byteOffset, bytes).set(memory.at(src, bytes)),
      ok('cuMemcpyDtoH')
    ),
    MemsetD8: (dst, value, bytes) => (memory.at(dst, bytes).fill(value), ok('cuMemsetD8')),
    LaunchKernel(f, gx, gy, gz, bx, by, bz, shared, _stream, kernelParams, extra) {
      const name = functions.get(f)!;
      const k = kernels[name];
      let launch: MockLaunch;
      if (kernelParams) {
        const n = k.params.length;
        const pointers: bigint[] = n ? Array.from(koffi.decode(kernelParams, 'uint64_t', n) as ArrayLike<bigint>) : [];
        const params = k.params.map((p, i) => (koffi.decode(pointers[i], 'uint8_t', p.size) as Uint8Array).slice());
        launch = {
          kernel: name,
          form: 'params',
          params,
          pointerOffsets: pointers.map((p) => Number(p - pointers[0])),
          grid: [gx, gy, gz],
          block: [bx, by, bz],
          shared,
        };
      } else {
        const words: bigint[] = Array.from(koffi.decode(extra, 'uint64_t', 5) as ArrayLike<bigint>);
        if (words[0] !== 1n || words[2] !== 2n || words[4] !== 0n)
          throw new Error(`mock CUDA: extra is not BUFFER_POINTER, BUFFER_SIZE, END: ${words}`);
        const size = Number((koffi.decode(words[3], 'uint64_t', 1) as ArrayLike<bigint>)[0]);
        const buffer = (koffi.decode(words[1], 'uint8_t', size) as Uint8Array).slice();
        const params = k.params.map((p) => buffer.slice(p.offset, p.offset + p.size));
        launch = { kernel: name, form: 'extra', params, buffer, grid: [gx, gy, gz], block: [bx, by, bz], shared };
      }
      launches.push(launch);
      k.body?.(launch.params, memory, launch.grid, launch.block);
      return ok('cuLaunchKernel');
    },
    StreamSynchronize: () => ok('cuStreamSynchronize'),
    EventCreate: (out) => ((out[0] = { event: calls.length }), events.add(out[0]), ok('cuEventCreate')),
    // A destroyed event is no handle (the driver answered a record on one with an error on the H200).
    EventRecord: (e: CuHandle) => (events.has(e) ? ok('cuEventRecord') : INVALID_HANDLE),
    EventSynchronize: (e: CuHandle) => (events.has(e) ? ok('cuEventSynchronize') : INVALID_HANDLE),
    EventElapsedTime: (ms) => ((ms[0] = 0.5), ok('cuEventElapsedTime')),
    EventDestroy: (e: CuHandle) => (events.delete(e) ? ok('cuEventDestroy') : INVALID_HANDLE),
    ...(options.withParamInfo === false
      ? {}
      : {
          FuncGetParamInfo: (f: CuHandle, i: number, offset: BigUint64Array, size: BigUint64Array) => {
            const p = kernels[functions.get(f)!].params[i];
            if (!p) return 1;
            offset[0] = BigInt(p.offset);
            size[0] = BigInt(p.size);
            return ok('cuFuncGetParamInfo');
          },
        }),
    errorName: (code) => `MOCK_ERROR_${code}`,
  };
  return driver;
}
