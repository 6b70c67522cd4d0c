import { formatDiagnostics } from '../diagnostics/format.js';
import { SourceFile } from '../diagnostics/source.js';
import { lowerOpenCL } from '../targets/opencl/lower.js';
import type { OpenCLPlan } from '../abi/plan.js';
import { emitTinytcOpenCLC, tinytcClStd } from '../tinytc/opencl-c/index.js';
import { emitTypeScriptBindings } from '../emit/typescript-bindings.js';
import { CL_STDS } from '../frontend/opencl-c/predefined.js';
import { kernelName, varName } from '../tinytc/calling-convention.js';
import { compileTinytc } from '../tinytc/index.js';
import { SPIR64 } from '../layout/data-layout.js';
import { lower } from '../lower.js';
import { KERNARG_VERSION } from '../version.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { type CliIO, includeHost, whyUnreadable } from './io.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { Messages } from '../diagnostics/messages.js';

export const GEN_TS_OPTIONS: readonly OptionSpec[] = [
  { name: 'output', short: 'o', kind: 'string', value: '<out.ts>', help: 'the module to write (stdout when left out)' },
  { name: 'include', short: 'I', kind: 'list', value: '<dir>', help: 'add a directory to the #include search path (kernarg and the driver)' },
  { name: 'define', short: 'D', kind: 'list', value: '<name>[=<value>]', help: 'define a macro (kernarg and the driver)' },
  { name: 'cl-std', kind: 'string', value: '<CLx.y>', help: `OpenCL C version: ${CL_STDS.join(' | ')} (default CL1.2)` },
];

/** `kernarg gen-ts <file> -o <out.ts>`: a typed TypeScript module with one entry per kernel. */
export function genTsCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, GEN_TS_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError('gen-ts needs one input file');
  const path = args.positionals[0];
  const isIr = path.endsWith('.ir');
  if (!isIr && !path.endsWith('.cl')) throw new UsageError(`cannot tell the language of '${path}': use a .cl or .ir file`);
  const std = (args.values.get('cl-std') as string | undefined) ?? 'CL1.2';
  if (!(CL_STDS as readonly string[]).includes(std)) throw new UsageError(`unknown --cl-std '${std}' (choose from ${CL_STDS.join(', ')})`);
  const includes = (args.values.get('include') as string[] | undefined) ?? [];
  const defines = ((args.values.get('define') as string[] | undefined) ?? []).map((d): [string, string | undefined] => {
    const eq = d.indexOf('=');
    return eq < 0 ? [d, undefined] : [d.slice(0, eq), d.slice(eq + 1)];
  });
  const out = args.values.get('output') as string | undefined;
  const source = io.readFile(path);
  if (source === undefined) {
    io.stderr(fileDiagnostic(path, Messages.cannotReadFile, ['input file', whyUnreadable(io, path)]));
    return 1;
  }
  const generator = `kernarg ${KERNARG_VERSION}`;
  let text: string;
  if (isIr) {
    const fe = compileTinytc(new SourceFile(path, source), { layout: SPIR64 });
    if (!fe.compiled) {
      io.stderr(formatDiagnostics(fe.diagnostics.items, { color: io.color }));
      return 1;
    }
    const compiled = fe.compiled;
    const plan = lowerOpenCL(compiled.module, {}, compiled.generated);
    const params = new Map(compiled.program.funcs.map((f) => [kernelName(f.name), f.params.map((p) => [varName(p.name), p.type] as const)] as const));
    text = emitTypeScriptBindings({
      generator,
      origin: path,
      plan,
      source: emitTinytcOpenCLC(compiled, { groupTables: 'pointer' }),
      options: `-cl-std=${tinytcClStd(compiled, 'pointer')}`,
      tinytc: { params, ulongSource: emitTinytcOpenCLC(compiled, { groupTables: 'ulong' }), ulongOptions: `-cl-std=${tinytcClStd(compiled, 'ulong')}` },
    });
  } else {
    const r = lower(path, source, includeHost(io), { target: 'opencl', format: 'json', std: std as 'CL1.2', includeDirs: includes, defines });
    if (!r.plan) {
      io.stderr(formatDiagnostics(r.diagnostics, { color: io.color }));
      return 1;
    }
    const options = [`-cl-std=${std}`, ...includes.map((d) => `-I ${d}`), ...defines.map(([n, v]) => (v === undefined ? `-D ${n}` : `-D ${n}=${v}`))].join(' ');
    text = emitTypeScriptBindings({ generator, origin: path, plan: r.plan as OpenCLPlan, source, options });
  }
  if (out === undefined) io.stdout(text);
  else if (io.writeFile) {
    try {
      io.writeFile(out, text);
    } catch (e) {
      io.stderr(fileDiagnostic(out, Messages.cannotWriteOutput, [(e as Error).message]));
      return 1;
    }
  }
  else throw new UsageError('this environment cannot write files: leave out -o to print the module');
  return 0;
}
