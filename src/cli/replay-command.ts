import { parseCapture, replayCapture } from '../runtime/replay.js';
import { CLError } from '../runtime/opencl/cl.js';
import { Context } from '../runtime/opencl/host.js';
import { PackError, RuntimeInputError } from '../pack/errors.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { type CliIO, whyUnreadable } from './io.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { Messages } from '../diagnostics/messages.js';

export const REPLAY_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'device',
    kind: 'string',
    value: '<substring>',
    help: 'replay on the device whose platform or name contains this',
  },
];

/**
 * `kernarg replay <capture.json>`: runs a captured launch again and prints every buffer after the
 * run — its bytes (base64) and, for pointers to scalars, its elements.
 */
export function replayCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, REPLAY_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError('replay needs one capture file');
  const path = args.positionals[0];
  const text = io.readFile(path);
  if (text === undefined) {
    io.stderr(fileDiagnostic(path, Messages.cannotReadFile, ['capture file', whyUnreadable(io, path)]));
    return 1;
  }
  let ctx: Context | undefined;
  try {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new RuntimeInputError(`${path} is not valid JSON: ${(e as Error).message}`);
    }
    const capture = parseCapture(json);
    ctx = Context.open(args.values.get('device') as string | undefined);
    const buffers = replayCapture(ctx, capture);
    const out: Record<string, unknown> = {};
    for (const [name, b] of buffers)
      out[name] = {
        typeName: b.typeName,
        bytes: Buffer.from(b.bytes).toString('base64'),
        ...(b.values ? { values: b.values } : {}),
      };
    io.stdout(
      JSON.stringify(
        {
          device: `${ctx.device.platform} / ${ctx.device.name}`,
          capturedOn: capture.device,
          kernel: capture.kernel,
          buffers: out,
        },
        null,
        2,
      ) + '\n',
    );
    return 0;
  } catch (e) {
    if (e instanceof RuntimeInputError || e instanceof CLError || e instanceof PackError) {
      io.stderr(fileDiagnostic(path, Messages.runFailed, [e.message]));
      return 1;
    }
    throw e;
  } finally {
    ctx?.dispose();
  }
}
