// tinytc code generation (--format opencl-c): what it emits for an accepted function must itself be
// OpenCL C that the OpenCL C frontend accepts, with the same kernels and as many parameters as the
// calling convention says.
import { lower } from '../../../src/lower.js';
import { FuzzFailure, checkLowering, decode } from '../oracle.js';

export const seedExtensions = ['.ir'];

export function fuzz(data: Uint8Array): void {
  const pick = data.length ? data[0] : 0;
  const r = checkLowering('fuzz.ir', decode(data.subarray(1)), {
    target: 'opencl',
    format: 'opencl-c',
    tinytc: { groupTables: pick & 1 ? 'ulong' : 'pointer' },
  });
  if (r.output === undefined || !r.plan) return;
  const back = lower(
    'generated.cl',
    r.output,
    { readFile: () => undefined },
    { target: 'opencl', format: 'json', std: 'CL2.0' },
  );
  if (!back.plan)
    throw new FuzzFailure(
      `generated OpenCL C does not compile:\n${back.diagnostics.map((d) => d.message).join('\n')}\n--- generated:\n${r.output.slice(0, 2000)}`,
    );
  const want = r.plan.kernels.map((k) => `${k.name}/${k.args.length}`).join(' ');
  const got = back.plan.kernels.map((k) => `${k.name}/${k.args.length}`).join(' ');
  if (want !== got) throw new FuzzFailure(`generated OpenCL C has kernels ${got}, the plan ${want}`);
}
