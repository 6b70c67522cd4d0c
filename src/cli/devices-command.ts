import { describePlatforms, type DeviceReport, type PlatformReport } from '../runtime/opencl/device-info.js';
import { RuntimeInputError } from '../runtime/pack/errors.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import type { CliIO } from './io.js';

export const DEVICES_OPTIONS: readonly OptionSpec[] = [{ name: 'json', kind: 'boolean', help: 'print the platforms and devices as JSON' }];

/** A byte count exactly, with its size in KiB/MiB/GiB beside it. */
function bytes(n: number | null): string {
  if (n === null) return 'n/a';
  const units: [number, string][] = [[2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']];
  const u = units.find(([size]) => n >= size);
  return u ? `${n} (${+(n / u[0]).toFixed(2)} ${u[1]})` : `${n}`;
}

function deviceText(d: DeviceReport): string {
  const l = d.limits;
  const rows: [string, string][] = [
    ['type', d.type],
    ['version', d.version],
    ['driver', d.driverVersion],
    ['OpenCL C', d.openclCVersion],
    ['compute units', String(l.maxComputeUnits ?? 'n/a')],
    ['max work-group size', String(l.maxWorkGroupSize ?? 'n/a')],
    ['max work-item sizes', d.maxWorkItemSizes.join(' x ')],
    ['max parameter size', bytes(l.maxParameterSize)],
    ['local memory', bytes(l.localMemSize)],
    ['max allocation', bytes(l.maxMemAllocSize)],
    ['global memory', bytes(l.globalMemSize)],
    ['max constant buffer', bytes(l.maxConstantBufferSize)],
    ['non-uniform work-groups', l.nonUniformWorkGroupSupport === null ? 'n/a' : l.nonUniformWorkGroupSupport ? 'yes' : 'no'],
    ['SVM capabilities', l.svmCapabilities === null ? 'n/a' : `0x${l.svmCapabilities.toString(16)}`],
    ['extensions', d.extensions.join(' ')],
  ];
  return [`  device: ${d.name} (${d.vendor})`, ...rows.map(([k, v]) => `    ${k.padEnd(24)}${v}`)].join('\n');
}

function platformText(p: PlatformReport): string {
  return [`platform: ${p.name} (${p.vendor}), ${p.version}`, ...p.devices.map(deviceText)].join('\n');
}

/** `kernarg devices [--json]`: every OpenCL platform and device with versions, extensions and limits. */
export function devicesCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, DEVICES_OPTIONS);
  if (args.positionals.length) throw new UsageError('devices takes no input file');
  let platforms: PlatformReport[];
  try {
    platforms = describePlatforms();
  } catch (e) {
    if (e instanceof RuntimeInputError) {
      io.stderr(`kernarg: error: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  if (args.values.get('json')) io.stdout(JSON.stringify({ platforms }, null, 2) + '\n');
  else io.stdout(platforms.length ? platforms.map(platformText).join('\n\n') + '\n' : 'no OpenCL platform found\n');
  return 0;
}
