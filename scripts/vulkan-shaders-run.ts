// Runs kernarg's own GLSL shaders (test/shaders, the cases of test/vulkan-shaders.test.ts) on a
// Vulkan device (KERNARG_VK_DEVICE picks it by substring) and prints PASS or FAIL per shader,
// each launch's result compared with the shader's JS reference. The SPIR-V comes from
// test/.tmp/shader-spv/ (compiled by glslangValidator where it is installed; carried to a machine
// without it). `--compile-only` fills that folder and runs nothing. Exit 1 when anything failed.
import { VulkanContext } from '../src/runtime/vulkan/context.js';
import { VulkanShader } from '../src/runtime/vulkan/shader.js';
import { findTool } from '../test/support/tools.js';
import { GLSLANG, SPV_CACHE, shaderSpirv } from '../test/support/glsl.js';
import { SHADER_CASES } from '../test/shaders/cases.js';

const SEEDS = [1, 2, 3, 2811];
const glslang = findTool(GLSLANG) ?? undefined;

if (process.argv.includes('--compile-only')) {
  if (!glslang) throw new Error('glslangValidator is not installed (Debian: glslang-tools)');
  for (const c of SHADER_CASES) shaderSpirv(c.name, glslang);
  console.log(`${SHADER_CASES.length} shaders compiled into ${SPV_CACHE}`);
  process.exit(0);
}

const ctx = VulkanContext.open(process.env.KERNARG_VK_DEVICE);
console.log(`device: ${ctx.device.name} (Vulkan ${ctx.device.version})`);
let failed = 0;
for (const c of SHADER_CASES) {
  const problems: string[] = [];
  let launches = 0;
  let ms = 0;
  const spirv = shaderSpirv(c.name, glslang);
  if (!spirv)
    problems.push(
      `no SPIR-V in ${SPV_CACHE}: run \`npx tsx scripts/vulkan-shaders-run.ts --compile-only\` where ` +
        `glslangValidator is, and carry the folder`,
    );
  else if (c.refused) {
    try {
      new VulkanShader(ctx, spirv).dispose();
      problems.push('launched, but the host should refuse it');
    } catch (e) {
      if (!c.refused.test(String((e as Error).message)))
        problems.push(`refused with another message: ${(e as Error).message}`);
    }
  } else {
    for (const run of c.runs) {
      try {
        const shader = new VulkanShader(ctx, spirv, run.options);
        try {
          for (const seed of SEEDS) {
            const args = run.args(seed);
            const r = shader.run(args, run.geometry);
            launches++;
            ms += r.timeMs;
            for (const d of run.check(args, r.args)) problems.push(`${run.label}, seed ${seed}: ${d}`);
          }
        } finally {
          shader.dispose();
        }
      } catch (e) {
        problems.push(`${run.label}: ${(e as Error).message}`);
      }
    }
  }
  if (problems.length) failed++;
  const what = c.refused ? 'refused as expected' : `${launches} launches, ${ms.toFixed(3)} ms on the device`;
  console.log(
    `${problems.length ? 'FAIL' : 'PASS'} ${c.name}: ${problems.length ? problems.slice(0, 5).join('; ') : what}`,
  );
}
ctx.dispose();
console.log(`${SHADER_CASES.length - failed} of ${SHADER_CASES.length} shaders passed`);
process.exitCode = failed ? 1 : 0;
