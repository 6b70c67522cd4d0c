// Near-miss declarations: valid generated programs (gen.ts) with one or two small token edits, and
// the verdict each compiler gives them (error or not), for the leniency oracle
// (test/oracle/near-miss-clang.test.ts, scripts/near-miss-sweep.ts): what clang-16 only warns
// about must not be an error in kernarg, and what clang refuses must not pass.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL, memoryHost } from '../../src/frontend/opencl-c/index.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { type ProgramSpec, programSpec, render } from './gen.js';

/** Tokens an edit inserts or puts in another's place: the punctuation and words declarations are made of. */
const EDIT_TOKENS = [
  ';',
  ',',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '*',
  ':',
  '=',
  '1',
  'const',
  'int',
  'struct',
  'global',
  'kernel',
  'void',
  'typedef',
  'x',
] as const;

export type Edit =
  | { kind: 'delete'; at: number }
  | { kind: 'insert'; at: number; token: number }
  | { kind: 'replace'; at: number; token: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'swap'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.nat(EDIT_TOKENS.length - 1) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), token: fc.nat(EDIT_TOKENS.length - 1) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
);

export interface NearMissSpec {
  readonly program: ProgramSpec;
  readonly edits: readonly Edit[];
  readonly std: 'CL1.2' | 'CL2.0';
}

export const nearMissSpec: fc.Arbitrary<NearMissSpec> = fc.record({
  program: programSpec,
  edits: fc.array(edit, { minLength: 1, maxLength: 2 }),
  std: fc.constantFrom('CL1.2' as const, 'CL2.0' as const),
});

/** Source tokens, each with the spacing before it kept (so a line-based `#if` stays on its lines). */
function tokens(src: string): string[] {
  return src.match(/\s*(?:[A-Za-z_]\w*|\d[\w.]*|\(\(|\)\)|[^\sA-Za-z_\d])/g) ?? [];
}

/**
 * The program with its edits applied, token by token (directives are left alone: a line edit could change every later
 * line).
 */
export function renderNearMiss(spec: NearMissSpec): string {
  const src = render(spec.program, 'n').source;
  const toks = tokens(src);
  // Tokens on directive lines are not edited: the edits are for declarations.
  const editable: number[] = [];
  let directive = false;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].includes('\n') || i === 0) directive = toks[i].trim() === '#';
    if (!directive && toks[i].trim() !== '#') editable.push(i);
  }
  for (const e of spec.edits) {
    if (editable.length === 0) break;
    const i = editable[e.at % editable.length];
    const lead = toks[i].match(/^\s*/)![0];
    switch (e.kind) {
      case 'delete':
        toks[i] = lead;
        break;
      case 'insert':
        toks[i] = `${lead}${EDIT_TOKENS[e.token]} ${toks[i].slice(lead.length)}`;
        break;
      case 'replace':
        toks[i] = `${lead}${EDIT_TOKENS[e.token]}`;
        break;
      case 'duplicate':
        toks[i] = `${toks[i]} ${toks[i].slice(lead.length)}`;
        break;
      case 'swap': {
        const j = editable[(e.at + 1) % editable.length];
        const a = toks[i].slice(lead.length);
        const leadJ = toks[j].match(/^\s*/)![0];
        toks[i] = lead + toks[j].slice(leadJ.length);
        toks[j] = leadJ + a;
        break;
      }
      default:
        e satisfies never;
    }
  }
  return toks.join('') + '\n';
}

export interface Verdict {
  readonly error: boolean;
  /** The first error line (for a report). */
  readonly first?: string;
}

/** kernarg's frontend on the source, with the layout clang's spir64 target uses. */
export function kernargVerdict(source: string, std: NearMissSpec['std']): Verdict {
  const r = compileOpenCL(new SourceFile('near-miss.cl', source), memoryHost({}), { std, layout: SPIR64 });
  const first = r.diagnostics.items.find((d) => d.severity === 'error');
  return { error: r.diagnostics.hasErrors, first: first && `${first.message} [${first.code}]` };
}

/**
 * clang-16 -fsyntax-only on many sources in one run (one process, one file each): each file's
 * verdict read from the `file:line:col: error:` lines of its output.
 */
export function clangVerdicts(clang: string, sources: readonly string[], std: NearMissSpec['std']): Verdict[] {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-near-miss-'));
  try {
    const files = sources.map((s, i) => {
      const f = join(dir, `n${i}.cl`);
      writeFileSync(f, s);
      return f;
    });
    const r = spawnSync(
      clang,
      [`-cl-std=${std}`, '-target', 'spir64', '-fsyntax-only', '-fno-color-diagnostics', '-ferror-limit=1', ...files],
      { encoding: 'utf8', maxBuffer: 256 << 20 },
    );
    if (r.error) throw r.error;
    const firsts = new Map<string, string>();
    for (const m of r.stderr.matchAll(/^(\S+\.cl):\d+:\d+: (?:fatal )?error: (.*)$/gm))
      if (!firsts.has(m[1])) firsts.set(m[1], m[2]);
    if (r.status !== 0 && firsts.size === 0)
      throw new Error(`clang failed with no error line:\n${r.stderr.slice(0, 2000)}`);
    return files.map((f) => ({ error: firsts.has(f), first: firsts.get(f) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Disagreement {
  readonly source: string;
  readonly std: NearMissSpec['std'];
  readonly kernarg: Verdict;
  readonly clang: Verdict;
}

/** Compares the verdicts on a batch of specs (one clang run per -cl-std). */
export function compareNearMisses(
  clang: string,
  specs: readonly NearMissSpec[],
): { agree: number; disagreements: Disagreement[] } {
  const disagreements: Disagreement[] = [];
  let agree = 0;
  for (const std of ['CL1.2', 'CL2.0'] as const) {
    const mine = specs.filter((s) => s.std === std).map(renderNearMiss);
    if (!mine.length) continue;
    const theirs = clangVerdicts(clang, mine, std);
    mine.forEach((source, i) => {
      const k = kernargVerdict(source, std);
      if (k.error === theirs[i].error) agree++;
      else disagreements.push({ source, std, kernarg: k, clang: theirs[i] });
    });
  }
  return { agree, disagreements };
}
