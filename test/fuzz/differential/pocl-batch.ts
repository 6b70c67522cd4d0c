// The device side of the tinytc-pocl target, batched: several generated tinytc functions go into
// one IR module, whose OpenCL C is built once for the device (the build cache, in a scratch folder,
// hands every later function of the module the same program), each function is launched on its own
// arguments, and the JS reference runs on a copy of them; every array is compared afterwards. A
// module the device refuses is split until the function it refuses is alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTinytc } from '../../../src/codegen/compile-tinytc.js';
import { SourceFile } from '../../../src/diagnostics/source.js';
import { SPIR64 } from '../../../src/layout/data-layout.js';
import type { Context } from '../../../src/runtime/opencl/host.js';
import { tinytcKernel } from '../../../src/runtime/tinytc.js';
import { type Args, assertSameArrays, cloneArgs } from '../../support/tinytc-exec.js';
import { runReference } from '../../support/tinytc-reference.js';
import type { Disagreement } from './clang-batch.js';

/** One generated function: its IR (a single `func @<name>`, named by `rename`), arguments and tolerance. */
export interface DeviceCase {
  readonly input: Uint8Array;
  /** The function's IR with its name. */
  readonly ir: (name: string) => string;
  readonly args: () => Args;
  readonly howmany: number;
  readonly tol: number;
}

export class PoclBatchOracle {
  readonly stats = { functions: 0, launches: 0, builds: 0, disagreements: 0, deviceMs: 0 };
  private readonly cache = mkdtempSync(join(tmpdir(), 'kernarg-fuzz-pocl-'));

  constructor(
    private readonly ctx: Context,
    private readonly progress: () => void = () => {},
  ) {}

  dispose(): void {
    rmSync(this.cache, { recursive: true, force: true });
  }

  /** One case on the device and on the reference; the difference in words, or undefined when they agree. */
  private runCase(module: string, name: string, c: DeviceCase): string | undefined {
    const fe = compileTinytc(new SourceFile('batch.ir', module), { layout: SPIR64 });
    const f = fe.program?.funcs.find((x) => x.name === name);
    if (!f) return `kernarg does not compile the batch's @${name}`;
    const dev = c.args();
    const ref = cloneArgs(dev);
    const k = tinytcKernel(this.ctx, module, name, { path: 'batch.ir', cache: this.cache, capture: false });
    try {
      k.launch({ args: dev, howmany: c.howmany });
      this.stats.launches++;
    } finally {
      (k as { dispose?: () => void }).dispose?.();
    }
    this.progress();
    runReference(f, ref, c.howmany);
    try {
      assertSameArrays(dev, ref, c.tol, `@${name}`);
    } catch (e) {
      return (e as Error).message;
    }
    return undefined;
  }

  private report(c: DeviceCase, message: string): Disagreement {
    this.stats.disagreements++;
    return { input: c.input, message: `${message}\n--- ir (howmany ${c.howmany}) ---\n${c.ir('chain')}` };
  }

  private group(cs: readonly DeviceCase[]): Disagreement[] {
    const names = cs.map((_, i) => `c${i}`);
    const module = cs.map((c, i) => c.ir(names[i])).join('\n');
    const out: Disagreement[] = [];
    const t0 = performance.now();
    this.stats.builds++;
    try {
      cs.forEach((c, i) => {
        this.stats.functions++;
        const d = this.runCase(module, names[i], c);
        if (d === undefined) return;
        // Confirmed alone, so the kept input reproduces by itself.
        const alone = cs.length === 1 ? d : this.runCase(c.ir('chain'), 'chain', c);
        if (alone !== undefined) out.push(this.report(c, alone));
      });
    } catch (e) {
      // A build or launch the device refused: alone, it is a finding; in a batch, split it.
      this.stats.deviceMs += performance.now() - t0;
      if (cs.length === 1)
        return [
          this.report(
            cs[0],
            `the device or the reference refused it: ${(e as Error).message.split('\n').slice(0, 8).join('\n')}`,
          ),
        ];
      const half = cs.length >> 1;
      return [...this.group(cs.slice(0, half)), ...this.group(cs.slice(half))];
    }
    this.stats.deviceMs += performance.now() - t0;
    return out;
  }

  check(cases: readonly DeviceCase[]): Disagreement[] {
    return cases.length ? this.group(cases) : [];
  }
}
