// Runs the core for every chosen target: the JSON plan, the text table, diagnostics and the
// parameters' source spans (for linking the drawings to the editor).
import {
  type DiffResult,
  type Diagnostic,
  type FileHost,
  type LowerResult,
  type TargetName,
  abiView,
  diffViews,
  emitJson,
  lower,
  readBinary,
  targetNamed,
} from 'kernarg';
import type { PlanJson } from './plan-json.js';
import type { AppState } from './state.js';
import { lowerOptions } from './target-options.js';

export interface TargetResult {
  readonly target: TargetName;
  /** The source is tinytc IR (formats that print tinytc bodies apply). */
  readonly isIr: boolean;
  readonly plan?: PlanJson;
  readonly json?: string;
  /** The same source in another of the target's formats (table, llvm-ir, clrx, ...), made when first asked for. */
  readonly render: (format: string) => LowerResult;
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
  /** The page's file the span is in (the main file or a header), or undefined for one without a span in them. */
  readonly file?: string;
  /** Offsets in that file, and the 1-based line and column of `from`. */
  readonly from?: number;
  readonly to?: number;
  readonly line?: number;
  readonly col?: number;
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

/**
 * The old file's name in two-source mode: same folder (its includes find the same headers) and language as the new one.
 */
export function oldFile(file: string): string {
  return file.replace(/[^/]*\.(\w+)$/, 'old.$1');
}

/** The page's files as the preprocessor's file host: a path is found when a file of the list has it. */
export function filesHost(state: Pick<AppState, 'headers'>): FileHost {
  const byPath = new Map(state.headers.map((h) => [h.path, h.text]));
  return { readFile: (path) => byPath.get(path) };
}

/**
 * The page's folder is the main file's folder and `-I .` too, so `#include <x.h>` finds a file of the list as `"x.h"`
 * does.
 */
const INCLUDE_DIRS = ['.'];

/**
 * The plan read from a compiled kernel, as one target's result: drawn, tabled and shown as JSON
 * like a source's (its target is the binary's). A binary that cannot be read gives its
 * diagnostics (at a byte, or a PTX line) and no plan.
 */
export function compileBinary(binary: NonNullable<AppState['binary']>, targets: readonly TargetName[]): Compiled {
  const read = readBinary(binary.bytes, binary.path);
  const plan = read.plan;
  const none = { results: [], args: new Map(), kernels: [], oldDiagnostics: [] };
  if (!plan)
    return {
      ...none,
      results: targets.map((target) => ({
        target,
        isIr: false,
        render: () => ({ diagnostics: read.diagnostics }),
        diagnostics: read.diagnostics,
      })),
      diagnostics: read.diagnostics.map((diagnostic) => ({ diagnostic })),
    };
  const json = emitJson(plan);
  const table = targetNamed(plan.target)!.table(plan);
  const result: TargetResult = {
    target: plan.target,
    isIr: false,
    plan: JSON.parse(json) as PlanJson,
    json,
    render: (format) => ({ output: format === 'json' ? json : table, plan, diagnostics: read.diagnostics }),
    diagnostics: read.diagnostics,
  };
  return {
    ...none,
    results: [result],
    kernels: plan.kernels.map((k) => k.name),
    diagnostics: read.diagnostics.map((diagnostic) => ({ diagnostic })),
  };
}

export function compile(state: AppState): Compiled {
  if (state.binary) return compileBinary(state.binary, state.targets);
  const src = { defines: state.defines, std: state.std };
  const host = filesHost(state);
  const optionsFor = (target: TargetName, format: string) => ({
    ...lowerOptions(target, src, state.options, format),
    includeDirs: INCLUDE_DIRS,
  });
  const results: TargetResult[] = [];
  const args = new Map<string, SourceArg[]>();
  const kernels: string[] = [];
  for (const target of state.targets) {
    const r = lower(state.file, state.source, host, optionsFor(target, 'json'));
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
      const old = lower(oldFile(state.file), state.old, host, optionsFor(target, 'json'));
      oldDiagnostics = old.diagnostics;
      if (old.plan && r.plan) diff = diffViews(abiView(old.plan), abiView(r.plan));
    }
    // Other formats only when a panel shows them: a real file with headers takes tens of milliseconds a format.
    const made = new Map<string, LowerResult>([['json', r]]);
    const { file, source } = state;
    const render = (format: string): LowerResult => {
      let out = made.get(format);
      if (!out) made.set(format, (out = lower(file, source, host, optionsFor(target, format))));
      return out;
    };
    if (r.output === undefined) {
      results.push({ target, isIr: file.endsWith('.ir'), render, diagnostics: r.diagnostics, oldDiagnostics });
      continue;
    }
    results.push({
      target,
      isIr: file.endsWith('.ir'),
      plan: JSON.parse(r.output) as PlanJson,
      json: r.output,
      render,
      diagnostics: r.diagnostics,
      diff,
      oldDiagnostics,
    });
  }
  const oldResults = results.map((r) => ({ target: r.target, diagnostics: r.oldDiagnostics ?? [] }));
  const oldPaths = new Set([oldFile(state.file), ...state.headers.map((h) => h.path)]);
  return {
    results,
    args,
    kernels,
    diagnostics: mergeDiagnostics(new Set([state.file, ...state.headers.map((h) => h.path)]), results),
    oldDiagnostics: mergeDiagnostics(oldPaths, oldResults),
  };
}

/** Each distinct diagnostic once, naming its targets when only some of them report it. */
function mergeDiagnostics(
  files: ReadonlySet<string>,
  results: readonly Pick<TargetResult, 'target' | 'diagnostics'>[],
): ShownDiagnostic[] {
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
    const targetsOf = targets.length === results.length ? undefined : targets;
    const span = d.span;
    if (!span || !files.has(span.file.path)) {
      out.push({ diagnostic: d, targets: targetsOf });
      continue;
    }
    const { line, col } = span.file.lineCol(span.start);
    out.push({
      diagnostic: d,
      file: span.file.path,
      from: span.start,
      to: Math.max(span.end, span.start),
      line,
      col,
      targets: targetsOf,
    });
  }
  return out;
}
