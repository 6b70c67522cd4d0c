// Loading a module image through the driver: PTX text compiled by the driver's JIT for the
// current context's device, or cubin bytes as they are, with the JIT's error log kept for a refusal.
import { koffi } from '../ffi.js';
import { type CuHandle, type CudaDriver, cuCheck } from './driver.js';
import { ptxForDriverJit } from './ptx-for-jit.js';

/**
 * Loads a module from PTX text or cubin bytes (cuModuleLoadDataEx) and returns its handle; a refusal
 * throws with the JIT's error log.
 */
export function loadModuleImage(cu: CudaDriver, image: string | Uint8Array, origin: string): CuHandle {
  // PTX goes in as NUL-terminated text; a cubin's bytes as they are.
  // (PTX goes through ptxForDriverJit: the JIT refuses `.ptr .shared` parameters that ptxas takes.)
  const bytes =
    typeof image === 'string' ? Buffer.concat([Buffer.from(ptxForDriverJit(image).text, 'utf8'), Buffer.of(0)]) : image;
  const k = koffi();
  const logSize = 16384;
  const log = k.alloc('uint8_t', logSize);
  try {
    // CU_JIT_ERROR_LOG_BUFFER (5) takes the buffer, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES (6) its size.
    const options = Int32Array.of(5, 6);
    const values = BigUint64Array.of(k.address(log), BigInt(logSize));
    const out: CuHandle[] = [null];
    const code = cu.ModuleLoadDataEx(out, bytes, 2, options, values);
    if (code !== 0) {
      const text = Buffer.from(k.view(log, logSize));
      const detail = text.toString('utf8', 0, Math.max(0, text.indexOf(0))).trim();
      cuCheck(cu, code, `cuModuleLoadData(${origin})`, detail);
    }
    return out[0];
  } finally {
    k.free(log);
  }
}
