// The import graph of src/: which file imports which (type imports too), its circles, its longest
// chain, and the Node globals and modules each file uses, found with the TypeScript compiler.
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

/** Every .ts file under src/, as paths relative to the repository. */
export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(relative(ROOT, p));
    }
  };
  walk(SRC);
  return out.sort();
}

export interface FileFacts {
  /** Files of this repository it imports (relative paths). */
  readonly imports: readonly string[];
  /** Modules outside it: `node:fs`, `koffi`, ... */
  readonly packages: readonly string[];
  /** Node globals it names (process, Buffer, ...): identifiers declared only by @types/node. */
  readonly nodeGlobals: readonly string[];
}

/**
 * Reads every file's imports and Node globals with one TypeScript program (web-standard globals come from the DOM
 * library).
 */
export function readGraph(files: readonly string[] = sourceFiles()): Map<string, FileFacts> {
  const program = ts.createProgram(
    files.map((f) => join(ROOT, f)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const graph = new Map<string, FileFacts>();
  for (const f of files) {
    const sf = program.getSourceFile(join(ROOT, f));
    if (!sf) throw new Error(`not in the program: ${f}`);
    const imports = new Set<string>();
    const packages = new Set<string>();
    const globals = new Set<string>();
    const addSpecifier = (spec: string) => {
      if (spec.startsWith('.'))
        imports.add(relative(ROOT, resolve(dirname(sf.fileName), spec.replace(/\.js$/, '.ts'))));
      else packages.add(spec);
    };
    const visit = (n: ts.Node): void => {
      if (
        (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
        n.moduleSpecifier &&
        ts.isStringLiteral(n.moduleSpecifier)
      )
        addSpecifier(n.moduleSpecifier.text);
      else if (
        ts.isCallExpression(n) &&
        n.expression.kind === ts.SyntaxKind.ImportKeyword &&
        n.arguments[0] &&
        ts.isStringLiteral(n.arguments[0])
      )
        addSpecifier(n.arguments[0].text);
      else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
        addSpecifier(n.argument.literal.text);
      else if (ts.isIdentifier(n)) {
        const symbol = checker.getSymbolAtLocation(n);
        const decls = symbol?.declarations ?? [];
        if (decls.length && decls.every((d) => d.getSourceFile().fileName.includes('/@types/node/')))
          globals.add(n.text);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    graph.set(f, { imports: [...imports].sort(), packages: [...packages].sort(), nodeGlobals: [...globals].sort() });
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): the circles. */
export function circles(graph: ReadonlyMap<string, FileFacts>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)?.imports ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.imports.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

/** The longest chain of imports (files, importer first), in a graph without circles. */
export function longestChain(graph: ReadonlyMap<string, FileFacts>): string[] {
  const memo = new Map<string, string[]>();
  const from = (v: string): string[] => {
    const seen = memo.get(v);
    if (seen) return seen;
    memo.set(v, [v]);
    let best: string[] = [];
    for (const w of graph.get(v)?.imports ?? []) {
      if (!graph.has(w)) continue;
      const c = from(w);
      if (c.length > best.length) best = c;
    }
    const chain = [v, ...best];
    memo.set(v, chain);
    return chain;
  };
  let best: string[] = [];
  for (const v of graph.keys()) {
    const c = from(v);
    if (c.length > best.length) best = c;
  }
  return best;
}
