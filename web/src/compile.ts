// Runs the core for every chosen target: the JSON plan, the text table, diagnostics and the
// parameters' source spans (for linking the drawings to the editor).
import { type DiffResult, type Diagnostic, type TargetName, abiView, diffViews, lower } from 'kernarg';
import type { PlanJson } from './plan-json.js';
import type { AppState } from './state.js';
import { lowerOptions } from './target-options.js';

export interface TargetResult {
  readonly target: TargetName;
  readonly plan?: PlanJson;
  readonly json?: string;
  readonly table?: string;
  readonly diagnostics: readonly Diagnostic[];
  /** Two-source mode: the old version's ABI against this one (when both lower). */
  readonly diff?: DiffResult;
  /** Two-source mode: the old version's diagnostics for this target. */
  readonly oldDiagnostics?: readonly Diagnostic[];
}

/** One source argument: its key (colour and link), name and where it is written. */
export interface SourceArg {
  readonly key: number;
  readonly name: string;
  readonly from: number;
  readonly to: number;
}

/** A diagnostic as the editor shows it, with the targets that reported it. */
export interface ShownDiagnostic {
  readonly diagnostic: Diagnostic;
  /** Offsets in the edited file, or undefined for a diagnostic without a span there. */
  readonly from?: number;
  readonly to?: number;
  /** Targets reporting it, or undefined when every target did (a source problem). */
  readonly targets?: readonly TargetName[];
}

/** Identity of a diagnostic across targets (each target's run makes its own objects). */
export function diagnosticId(d: Diagnostic): string {
  return `${d.code}|${d.span?.start ?? -1}|${d.message}`;
}

export interface Compiled {
  readonly results: readonly TargetResult[];
  /** Kernel name → its source arguments. */
  readonly args: ReadonlyMap<string, readonly SourceArg[]>;
  readonly kernels: readonly string[];
  readonly diagnostics: readonly ShownDiagnostic[];
  /** Two-source mode: the old version's diagnostics, merged like `diagnostics`. */
  readonly oldDiagnostics: readonly ShownDiagnostic[];
}

/** The old file's name in two-source mode: same language as the new one. */
export function oldFile(file: string): string {
  return file.replace(/^.*\./, 'old.');
}

const noFiles = { readFile: (): undefined => undefined };

export function compile(state: AppState): Compiled {
  const src = { defines: state.defines, std: state.std };
  const results: TargetResult[] = [];
  const args = new Map<string, SourceArg[]>();
  const kernels: string[] = [];
  for (const target of state.targets) {
    const r = lower(state.file, state.source, noFiles, lowerOptions(target, src, state.options, 'json'));
    if (r.module && kernels.length === 0) {
      for (const f of r.module.functions) {
        if (!f.isKernel) continue;
        kernels.push(f.name);
        const list: SourceArg[] = [];
        for (const p of f.params) {
          // tinytc: the lowered parameters of one logical argument share its key and span.
          const key = p.origin?.argIndex ?? p.index;
          if (list.some((a) => a.key === key)) continue;
          if (p.span.file.path !== state.file) continue;
          list.push({ key, name: p.origin?.arg ?? p.name, from: p.span.start, to: p.span.end });
        }
        args.set(f.name, list);
      }
    }
    let diff: DiffResult | undefined;
    let oldDiagnostics: readonly Diagnostic[] | undefined;
    if (state.compare) {
      const old = lower(oldFile(state.file), state.old, noFiles, lowerOptions(target, src, state.options, 'json'));
      oldDiagnostics = old.diagnostics;
      if (old.plan && r.plan) diff = diffViews(abiView(old.plan), abiView(r.plan));
    }
    if (r.output === undefined) {
      results.push({ target, diagnostics: r.diagnostics, oldDiagnostics });
      continue;
    }
    const table = lower(state.file, state.source, noFiles, lowerOptions(target, src, state.options, 'table')).output;
    results.push({ target, plan: JSON.parse(r.output) as PlanJson, json: r.output, table, diagnostics: r.diagnostics, diff, oldDiagnostics });
  }
  const oldResults = results.map((r) => ({ target: r.target, diagnostics: r.oldDiagnostics ?? [] }));
  return { results, args, kernels, diagnostics: mergeDiagnostics(state.file, results), oldDiagnostics: mergeDiagnostics(oldFile(state.file), oldResults) };
}

/** Each distinct diagnostic once, naming its targets when only some of them report it. */
function mergeDiagnostics(file: string, results: readonly Pick<TargetResult, 'target' | 'diagnostics'>[]): ShownDiagnostic[] {
  const seen = new Map<string, { d: Diagnostic; targets: TargetName[] }>();
  for (const r of results) {
    for (const d of r.diagnostics) {
      const id = diagnosticId(d);
      const entry = seen.get(id);
      if (entry) entry.targets.push(r.target);
      else seen.set(id, { d, targets: [r.target] });
    }
  }
  const out: ShownDiagnostic[] = [];
  for (const { d, targets } of seen.values()) {
    const inFile = d.span && d.span.file.path === file;
    out.push({
      diagnostic: d,
      from: inFile ? d.span!.start : undefined,
      to: inFile ? Math.max(d.span!.end, d.span!.start) : undefined,
      targets: targets.length === results.length ? undefined : targets,
    });
  }
  return out;
}
