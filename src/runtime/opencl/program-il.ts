// OpenCL programs from SPIR-V (tinytc's OpenCL SPIR-V, `--il spirv`). A device that lists SPIR-V in
// CL_DEVICE_IL_VERSION takes the module through clCreateProgramWithIL. One that does not but takes
// SPIR (cl_khr_spir: LLVM bitcode for spir64) gets the module translated to bitcode by the Khronos
// SPIRV-LLVM-Translator (`llvm-spirv -r`), which is what PoCL itself runs on SPIR-V when it is built
// with SPIR-V support; Debian's PoCL 3.1 is not (its IL version is empty) but takes SPIR.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { check } from './cl.js';
import { deviceString } from './device-info.js';
import { BuildError, type BuildContext, type BuiltProgram, type ProgramSpec } from './program.js';
import { RuntimeInputError } from '../../pack/errors.js';

/** How a SPIR-V module reached the device. */
export type IlRoute = 'il' | 'spir-translated';

/**
 * The translators tried, newest first (KERNARG_LLVM_SPIRV names another); the bitcode must be one the device's LLVM
 * reads.
 */
const TRANSLATORS = ['llvm-spirv-15', 'llvm-spirv-14', 'llvm-spirv'];

/** The first translator that runs, or null. */
function findTranslator(): string | null {
  const named = process.env.KERNARG_LLVM_SPIRV;
  for (const t of named ? [named] : TRANSLATORS) {
    const r = spawnSync(t, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return t;
  }
  return null;
}

/** The device's intermediate languages, or '' before OpenCL 2.1. */
function ilVersions(ctx: BuildContext): string {
  try {
    return deviceString(ctx.cl, ctx.device.handle, 'ilVersion');
  } catch {
    return '';
  }
}

/** How this context's device would take SPIR-V: its route, or why it cannot. */
export function spirvRoute(ctx: BuildContext): { route: IlRoute; translator?: string } | { refused: string } {
  if (/SPIR-V/.test(ilVersions(ctx)) && ctx.cl.CreateProgramWithIL) return { route: 'il' };
  const spir = deviceString(ctx.cl, ctx.device.handle, 'extensions').split(/\s+/).includes('cl_khr_spir');
  const translator = spir ? findTranslator() : null;
  if (translator) return { route: 'spir-translated', translator };
  const why = spir
    ? `it takes SPIR (cl_khr_spir) but no SPIR-V translator runs (${TRANSLATORS.join(', ')}; KERNARG_LLVM_SPIRV ` +
      `names another): install llvm-spirv-15`
    : 'it has neither cl_khr_spir nor a SPIR-V translator route';
  return {
    refused: `${ctx.device.platform} / ${ctx.device.name} takes no SPIR-V: CL_DEVICE_IL_VERSION lists none, and ${why}`,
  };
}

/** The module as SPIR bitcode, by the translator. */
function translate(translator: string, words: Uint32Array): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spirv-'));
  try {
    const spv = join(dir, 'k.spv');
    const bc = join(dir, 'k.bc');
    writeFileSync(spv, words);
    const r = spawnSync(translator, ['-r', spv, '-o', bc], { encoding: 'utf8' });
    if (r.status !== 0)
      throw new RuntimeInputError(
        `${translator} could not translate the SPIR-V kernarg generated:\n${r.stderr}${r.stdout}`,
      );
    return readFileSync(bc);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Builds a SPIR-V module for the context's device by its route (no cache: translating and
 * building take what reading a cached binary would). `spec.source` is the module's text, for
 * build errors; `spec.options` the build options.
 */
export function buildSpirvProgram(
  ctx: BuildContext,
  words: Uint32Array,
  spec: ProgramSpec,
): BuiltProgram & { route: IlRoute } {
  const t0 = performance.now();
  const how = spirvRoute(ctx);
  if ('refused' in how) throw new RuntimeInputError(how.refused);
  const err = [0];
  let p: bigint;
  let options = spec.options;
  if (how.route === 'il') {
    const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
    p = ctx.cl.CreateProgramWithIL!(ctx.handle, bytes, bytes.byteLength, err);
    check(err[0], 'clCreateProgramWithIL');
  } else {
    const bc = translate(how.translator!, words);
    const status = new Int32Array(1);
    p = ctx.cl.CreateProgramWithBinary(
      ctx.handle,
      1,
      [ctx.device.handle],
      BigUint64Array.of(BigInt(bc.length)),
      [bc],
      status,
      err,
    );
    check(err[0] || status[0], 'clCreateProgramWithBinary (SPIR)');
    // cl_khr_spir: a SPIR binary is built with -x spir.
    options = `-x spir -spir-std=1.2${options ? ` ${options}` : ''}`;
  }
  const code = ctx.cl.BuildProgram(p, 1, [ctx.device.handle], options, null, null);
  if (code !== 0) {
    const size = [0];
    ctx.cl.GetProgramBuildInfo(p, ctx.device.handle, 0x1183, 0, null, size);
    const log = Buffer.alloc(size[0]);
    ctx.cl.GetProgramBuildInfo(p, ctx.device.handle, 0x1183, size[0], log, null);
    ctx.cl.ReleaseProgram(p);
    throw new BuildError(
      code,
      log.toString('utf8').replace(/\0+$/, ''),
      { ...spec, options },
      `${ctx.device.platform} / ${ctx.device.name}`,
    );
  }
  return { handle: p, cache: 'off', ms: performance.now() - t0, spec: { ...spec, options }, route: how.route };
}
