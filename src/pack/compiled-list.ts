// The compiled path of a kernel whose slots are all arguments set by index: one straight-line
// function that checks the names with a switch, writes every value at constant offsets and
// stores handles and local sizes in place. Anything unexpected falls back to the packer's steps,
// which write it or throw the precise error.
import { HOP, I64_MIN, checkedInteger, emitWriter } from './compiled.js';
import type { Args, LaunchInfo } from './launch.js';
import type { Packed, SetArg } from './packed.js';
import type { PackLayout } from './placement.js';

/** Whether every slot is a parameter's value, handle or local size set by argument index, each parameter once. */
export function listOnly(layout: PackLayout): boolean {
  return (
    layout.slots.length === layout.names.length &&
    layout.slots.every(
      (s, i) =>
        s.where.kind === 'arg-index' &&
        (s.fill.kind === 'value' || s.fill.kind === 'handle' || s.fill.kind === 'local-bytes') &&
        s.fill.param === layout.names[i],
    )
  );
}

type Pack = (args: Args, launch: LaunchInfo) => Packed;

export function compileArgList(layout: PackLayout, out: readonly SetArg[], packed: Packed, slow: Pack): Pack {
  const lines: string[] = [];
  const counter = { n: 0 };
  const views: DataView[] = [];
  // Only JSON.stringify'd names and checked integers reach the generated source.
  const n = (x: unknown) => checkedInteger(x, 'an argument index or count');
  const { names, slots } = layout;
  lines.push('if (typeof args !== "object" || args === null) return slow(args, launch);');
  if (names.length === 0) lines.push('for (const k in args) return slow(args, launch);', 'fast: {');
  else {
    // `for in` also walks inherited enumerable keys: each counted key must be the object's own.
    lines.push(...nameCheckLines(names, 'return slow(args, launch);'), 'fast: {');
  }
  slots.forEach((s, i) => {
    const v = `a${i}`;
    const f = s.fill;
    lines.push(`const ${v} = args[${JSON.stringify(names[i])}];`);
    switch (f.kind) {
      case 'value':
        views.push(new DataView((out[i] as { bytes: Uint8Array }).bytes.buffer));
        emitWriter(f.layout, `views[${n(views.length - 1)}]`, '0', v, lines, counter);
        return;
      case 'local-bytes':
        lines.push(
          `if (typeof ${v} !== 'object' || ${v} === null || !Object.hasOwn(${v}, 'local') || ` +
            `!Number.isSafeInteger(${v}.local) || ${v}.local <= ` +
            `0${f.elementSize === 1 ? '' : ` || ${v}.local % ${n(f.elementSize)} !== 0`}) break fast;`,
          `out[${n(i)}].size = ${v}.local;`,
        );
        return;
      case 'handle':
        lines.push(
          `if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) break fast;`,
          `out[${n(i)}].handle = ${v};`,
        );
        return;
      default:
        throw new TypeError(`not a fill of an argument set by index: ${f.kind}`);
    }
  });
  lines.push('return packed;', '}', 'return slow(args, launch);');
  const make = new Function(
    'out',
    'views',
    'packed',
    'slow',
    'HOP',
    'I64_MIN',
    `return function pack(args, launch) {\n${lines.join('\n')}\n};`,
  );
  return make(out, views, packed, slow, HOP, I64_MIN) as Pack;
}

/**
 * A compiled check that `args` has exactly these own keys (a switch over the names, as the list
 * path does); false sends the caller to checkNames, which accepts or throws the precise error.
 */
export function compileNameCheck(names: readonly string[]): (args: Args) => boolean {
  const lines = [
    'if (typeof args !== "object" || args === null) return false;',
    ...nameCheckLines(names, 'return false;'),
    'return true;',
  ];
  return new Function('HOP', `return function names(args) {\n${lines.join('\n')}\n};`)(HOP) as (args: Args) => boolean;
}

/**
 * Generated statements that count the own keys of `args` (an object) against `names` with a switch, running `miss` on
 * an inherited key, another key or a missing one; they call HOP, which the generated function must be given.
 */
export function nameCheckLines(names: readonly string[], miss: string): string[] {
  return [
    'let count = 0;',
    'for (const k in args) {',
    `  if (!HOP.call(args, k)) ${miss}`,
    '  switch (k) {',
    ...names.map((name) => `    case ${JSON.stringify(name)}:`),
    names.length ? '      count++; break;' : '',
    `    default: ${miss}`,
    '  }',
    '}',
    `if (count !== ${checkedInteger(names.length, 'an argument count')}) ${miss}`,
  ];
}
