import { describePlatforms, type DeviceReport, type PlatformReport } from '../runtime/opencl/device-info.js';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { formatDiagnostic } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { CLError } from '../runtime/opencl/cl.js';
import { RuntimeInputError } from '../pack/errors.js';
import { VulkanError } from '../runtime/vulkan/vk.js';
import { type VulkanDeviceInfo, listVulkanDevices } from '../runtime/vulkan/instance.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import type { CliIO } from './io.js';

/** The APIs `devices` lists: each one `run --api` takes, or all of them. */
const DEVICE_APIS = ['all', 'opencl', 'vulkan'] as const;

export const DEVICES_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'api',
    kind: 'string',
    value: 'opencl|vulkan|all',
    choices: DEVICE_APIS,
    help: 'the API whose devices to list (default all): run --api and --device take what this prints',
  },
  {
    name: 'json',
    kind: 'boolean',
    help:
      'print the devices as JSON: {"platforms": [OpenCL platforms with their devices], "vulkan": [Vulkan ' +
      'devices]} (the APIs listed)',
  },
];

/** A byte count exactly, with its size in KiB/MiB/GiB beside it. */
function bytes(n: number | null): string {
  if (n === null) return 'n/a';
  const units: [number, string][] = [
    [2 ** 30, 'GiB'],
    [2 ** 20, 'MiB'],
    [2 ** 10, 'KiB'],
  ];
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
    [
      'non-uniform work-groups',
      l.nonUniformWorkGroupSupport === null ? 'n/a' : l.nonUniformWorkGroupSupport ? 'yes' : 'no',
    ],
    ['SVM capabilities', l.svmCapabilities === null ? 'n/a' : `0x${l.svmCapabilities.toString(16)}`],
    ['extensions', d.extensions.join(' ')],
  ];
  return [`  device: ${d.name} (${d.vendor})`, ...rows.map(([k, v]) => `    ${k.padEnd(24)}${v}`)].join('\n');
}

function platformText(p: PlatformReport): string {
  return [`platform: ${p.name} (${p.vendor}), ${p.version}`, ...p.devices.map(deviceText)].join('\n');
}

function vulkanText(d: VulkanDeviceInfo): string {
  return [`  device: ${d.name}`, `    ${'type'.padEnd(24)}${d.type}`, `    ${'Vulkan'.padEnd(24)}${d.version}`].join(
    '\n',
  );
}

/** What one API's listing gave: its devices, or why they could not be listed (no loader, a failing driver). */
type Listing<T> = { readonly found: T } | { readonly error: string };

function list<T>(read: () => T): Listing<T> {
  try {
    return { found: read() };
  } catch (e) {
    if (e instanceof RuntimeInputError || e instanceof CLError || e instanceof VulkanError) return { error: e.message };
    throw e;
  }
}

/**
 * `kernarg devices [--api opencl|vulkan|all] [--json]`: every OpenCL platform and device with
 * versions, extensions and limits, and every Vulkan device with its type and version. With
 * `--api all` an API that cannot be listed (no ICD loader, no Vulkan loader) is said so and the
 * other is still listed; the exit code is 1 only when none could be.
 */
export function devicesCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, DEVICES_OPTIONS);
  if (args.positionals.length) throw new UsageError('devices takes no input file');
  const api = (args.values.get('api') as (typeof DEVICE_APIS)[number] | undefined) ?? 'all';
  const opencl = api === 'vulkan' ? undefined : list(describePlatforms);
  const vulkan = api === 'opencl' ? undefined : list(listVulkanDevices);
  const failures = [opencl, vulkan].filter((l) => l !== undefined && 'error' in l).length;
  const listed = [opencl, vulkan].filter((l) => l !== undefined).length;
  // No file is involved: said as kernarg's own, with a code; a warning when the other API could be listed.
  const message = failures === listed ? Messages.devicesUnlisted : Messages.devicesPartly;
  for (const [name, l] of [
    ['OpenCL', opencl],
    ['Vulkan', vulkan],
  ] as const)
    if (l && 'error' in l) io.stderr(formatDiagnostic(new DiagnosticBag().report(message, undefined, [name, l.error])));
  if (failures === listed) return 1;
  if (args.values.get('json')) {
    const out: Record<string, unknown> = {};
    // `platforms` is the OpenCL list's key since before Vulkan was listed: scripts reading it go on working.
    if (opencl && 'found' in opencl) out.platforms = opencl.found;
    if (vulkan && 'found' in vulkan) out.vulkan = vulkan.found;
    io.stdout(JSON.stringify(out, null, 2) + '\n');
    return 0;
  }
  const parts: string[] = [];
  if (opencl && 'found' in opencl)
    parts.push(opencl.found.length ? opencl.found.map(platformText).join('\n\n') : 'no OpenCL platform found');
  if (vulkan && 'found' in vulkan)
    parts.push(
      vulkan.found.length ? ['platform: Vulkan', ...vulkan.found.map(vulkanText)].join('\n') : 'no Vulkan device found',
    );
  io.stdout(parts.join('\n\n') + '\n');
  return 0;
}
