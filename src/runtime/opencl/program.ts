import { performance } from 'node:perf_hooks';
import { KERNARG_VERSION } from '../../version.js';
import { type CacheKeyParts, cacheDir, cacheKey, readEntry, writeEntry } from './build-cache.js';
import { CLError, type CL, type Handle, check } from './cl.js';
import { deviceString, infoString, platformString } from './device-info.js';
import { type BuildInput, driverOptions } from '../../build-input/build-input.js';
import { includeTree, logInTermsOf } from './include-tree.js';

/** What building a program needs of a context (host.ts's Context has it). */
export interface BuildContext {
  readonly cl: CL;
  readonly handle: Handle;
  readonly device: {
    readonly handle: Handle;
    readonly platformHandle: Handle;
    readonly platform: string;
    readonly name: string;
    readonly version: string;
  };
}

const CL_PROGRAM_BUILD_LOG = 0x1183;

/** Where a generated OpenCL C line came from: a line of the file the user wrote. */
export interface SourceOrigin {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** What a program is built from, and what its messages and cache key need to know. */
export interface ProgramSpec {
  readonly source: string;
  readonly options: string;
  /** Where the source came from: a path, or `<name>.cl` for a string. */
  readonly origin: string;
  /** Set when kernarg generated the OpenCL C (tinytc): what it was generated from. */
  readonly generatedFrom?: string;
  /**
   * The portable build input `source` and `options` come from (OpenCL C a person wrote): the driver
   * builds it, from an include tree when it read headers (include-tree.ts), and every header's bytes
   * key the cache. `options` is then shownOptions(build): what a person reads, and the cache's key.
   */
  readonly build?: BuildInput;
  /** The folder the build input's paths are relative to, for the build log (default: the recorded paths). */
  readonly shownAs?: string;
  /** false: no cache; a string: the cache folder; else KERNARG_CACHE_DIR / KERNARG_CACHE (see cacheDir). */
  readonly cache?: boolean | string;
  /** For generated OpenCL C: the user's line each generated line (1-based) comes from. */
  readonly lineOrigin?: (line: number) => SourceOrigin | undefined;
}

/**
 * How the program was obtained: from the cache, built and stored, rebuilt over a bad entry, or built with the cache
 * off.
 */
export type CacheOutcome = 'hit' | 'miss' | 'rebuilt' | 'off';

export interface BuiltProgram {
  readonly handle: Handle;
  readonly cache: CacheOutcome;
  /** Why a cache entry was not used, when it was rebuilt. */
  readonly rebuiltBecause?: string;
  /** Wall time of getting the program: reading the cache or compiling, in ms. */
  readonly ms: number;
  readonly spec: ProgramSpec;
}

/** A failed build, with everything a person needs to act on it. */
export class BuildError extends CLError {
  constructor(
    code: number,
    readonly log: string,
    readonly spec: ProgramSpec,
    readonly device: string,
  ) {
    super(code, 'clBuildProgram', describeFailure(log, spec, device));
    this.name = 'BuildError';
  }
}

/** The build log, with every `<source>:line:col` the driver cites in generated code traced to the user's file. */
function describeFailure(log: string, spec: ProgramSpec, device: string): string {
  const lines = [
    `source: ${spec.origin}${spec.generatedFrom ? ` (OpenCL C that kernarg generated from ${spec.generatedFrom})` : ''}`,
    `options: ${spec.options || '(none)'}`,
    `device: ${device}`,
    'build log:',
    log.trim() ? log.trimEnd() : '(the driver gave no log)',
  ];
  if (spec.lineOrigin) {
    const generated = spec.source.split('\n');
    const seen = new Set<number>();
    for (const m of log.matchAll(/(?:^|[\s"'(])(?:<source>|<kernel>|[\w./-]*\.cl|input):(\d+):(?:(\d+):)?/gm)) {
      const line = Number(m[1]);
      if (seen.has(line)) continue;
      seen.add(line);
      const o = spec.lineOrigin(line);
      if (!o) continue;
      lines.push(
        `generated line ${line}: ${(generated[line - 1] ?? '').trim()}`,
        `  comes from ${o.file}:${o.line}: ${o.text.trim()}`,
      );
    }
  }
  return lines.join('\n');
}

function keyParts(ctx: BuildContext, spec: ProgramSpec): CacheKeyParts {
  const { cl, device } = ctx;
  return {
    kernarg: KERNARG_VERSION,
    source: spec.source,
    options: spec.options,
    includes: spec.build ? Object.entries(spec.build.headers) : [],
    platform: device.platform,
    platformVersion: platformString(cl, device.platformHandle, 'version'),
    device: device.name,
    deviceVersion: device.version,
    driverVersion: deviceString(cl, device.handle, 'driverVersion'),
  };
}

function compile(ctx: BuildContext, p: Handle, options: string): number {
  return ctx.cl.BuildProgram(p, 1, [ctx.device.handle], options, null, null);
}

function buildLog(ctx: BuildContext, p: Handle): string {
  return infoString(
    (s, o, r) => ctx.cl.GetProgramBuildInfo(p, ctx.device.handle, CL_PROGRAM_BUILD_LOG, s, o, r),
    'clGetProgramBuildInfo',
  );
}

function fromSource(ctx: BuildContext, spec: ProgramSpec): Handle {
  const err = [0];
  const tree = spec.build ? includeTree(spec.build) : { source: spec.source, options: spec.options, dir: null };
  const p = ctx.cl.CreateProgramWithSource(ctx.handle, 1, [tree.source], null, err);
  check(err[0], 'clCreateProgramWithSource');
  const code = compile(ctx, p, tree.options);
  if (code !== 0) {
    const log = logInTermsOf(buildLog(ctx, p), tree, spec.shownAs ?? '.');
    ctx.cl.ReleaseProgram(p);
    throw new BuildError(code, log, spec, `${ctx.device.platform} / ${ctx.device.name}`);
  }
  return p;
}

/** A program from a cached binary, or the reason the binary cannot be used. */
function fromBinary(ctx: BuildContext, spec: ProgramSpec, binary: Buffer): Handle | string {
  const err = [0];
  const status = new Int32Array(1);
  const p = ctx.cl.CreateProgramWithBinary(
    ctx.handle,
    1,
    [ctx.device.handle],
    BigUint64Array.of(BigInt(binary.length)),
    [binary],
    status,
    err,
  );
  if (err[0] !== 0 || status[0] !== 0) {
    if (p) ctx.cl.ReleaseProgram(p);
    return `the driver refused the binary (${err[0] || status[0]})`;
  }
  // A binary is past preprocessing: the options without the include tree's folders are enough.
  const code = compile(ctx, p, spec.build ? driverOptions(spec.build, null) : spec.options);
  if (code !== 0) {
    ctx.cl.ReleaseProgram(p);
    return `the driver could not build the binary (${code})`;
  }
  return p;
}

/**
 * Builds `spec` for the context's device, through the persistent cache: a valid entry is
 * loaded with clCreateProgramWithBinary; a missing one is built from source and stored; a
 * damaged or refused one is rebuilt from source and replaced.
 */
export function buildProgram(ctx: BuildContext, spec: ProgramSpec): BuiltProgram {
  const t0 = performance.now();
  const dir = cacheDir(spec.cache);
  if (dir === null) return { handle: fromSource(ctx, spec), cache: 'off', ms: performance.now() - t0, spec };
  const key = cacheKey(keyParts(ctx, spec));
  const entry = readEntry(dir, key);
  let rebuiltBecause: string | undefined;
  if (entry.kind === 'hit') {
    const p = fromBinary(ctx, spec, entry.payload);
    if (typeof p !== 'string') return { handle: p, cache: 'hit', ms: performance.now() - t0, spec };
    rebuiltBecause = p;
  } else if (entry.kind === 'bad') rebuiltBecause = entry.why;
  const handle = fromSource(ctx, spec);
  const binary = ctx.cl.programBinary(handle);
  if (binary.length) writeEntry(dir, key, binary);
  return {
    handle,
    cache: rebuiltBecause ? 'rebuilt' : 'miss',
    ...(rebuiltBecause ? { rebuiltBecause } : {}),
    ms: performance.now() - t0,
    spec,
  };
}
