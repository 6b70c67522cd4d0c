// The production bundle of the explorer (web/dist, built by `npm run build:web`) holds kernarg's
// core and the page's own libraries only: no Node built-in, no Node polyfill, no host runtime.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { DIST, requireBuild } from './browser.js';
import { bundleSize } from './bundle-size.js';

/** Packages the page may bundle: the editor and its parser/highlighter. */
const ALLOWED_PACKAGES =
  /^(@codemirror\/[\w-]+|@lezer\/[\w-]+|@marijn\/find-cluster-break|style-mod|w3c-keyname|crelt)$/;
/** Known copies of Node APIs made for browsers. */
const POLYFILLS =
  /^(buffer|process|events|util|assert|path-browserify|stream-browserify|crypto-browserify|os-browserify|browserify-zlib|stream-http|https-browserify|url|querystring-es3|timers-browserify|tty-browserify|vm-browserify|constants-browserify|string_decoder|punycode|node-stdlib-browser|vite-plugin-node-polyfills|rollup-plugin-node-polyfills|@esbuild-plugins\/node-modules-polyfill|core-js)$/;
const ROOT = join(DIST, '..', '..');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** What in a bundle's module list (paths from the repository root) and code betrays Node: one line per problem. */
export function nodeLeaks(sources: readonly string[], code: string): string[] {
  const out: string[] = [];
  for (const s of sources) {
    const path = s;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (path.startsWith('node:') || BUILTINS.has(path) || path.includes('__vite-browser-external'))
      out.push(`Node built-in module ${s}`);
    else if (pkg !== undefined) {
      if (POLYFILLS.test(pkg)) out.push(`Node polyfill ${pkg}`);
      else if (!ALLOWED_PACKAGES.test(pkg)) out.push(`unexpected package ${pkg}`);
    } else if (
      /^src\/(cli|runtime\/(opencl|vulkan))\//.test(path) ||
      path === 'src/runtime/index.ts' ||
      path === 'src/runtime/tinytc.ts'
    )
      out.push(`host-only module ${path}`);
    else if (!/^(src|web\/src)\//.test(path) && !path.startsWith('web/index.html'))
      out.push(`module outside the core and the page: ${s}`);
  }
  // Imports a bundler left in the code: import/require/dynamic import of a built-in.
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s*)["']([\w:/.-]+)["']/g)) {
    if (BUILTINS.has(m[1])) out.push(`import of Node built-in '${m[1]}'`);
  }
  if (/\brequire\s*\(/.test(code)) out.push('a require() call');
  return out;
}

test('the leak check finds built-ins, polyfills and host modules', () => {
  const bad = nodeLeaks(
    [
      'node_modules/buffer/index.js',
      '__vite-browser-external:fs',
      'src/cli/main.ts',
      'node_modules/left-pad/index.js',
      'src/runtime/opencl/cl.ts',
    ],
    'import{readFileSync}from"node:fs";const p=require("path");',
  );
  assert.deepEqual(bad, [
    'Node polyfill buffer',
    'Node built-in module __vite-browser-external:fs',
    'host-only module src/cli/main.ts',
    'unexpected package left-pad',
    'host-only module src/runtime/opencl/cl.ts',
    "import of Node built-in 'node:fs'",
    "import of Node built-in 'path'",
    'a require() call',
  ]);
  assert.deepEqual(
    nodeLeaks(['src/lower.ts', 'web/src/main.ts', 'node_modules/@codemirror/view/dist/index.js'], 'const x={node:1};'),
    [],
  );
});

test('the production bundle has no Node built-ins and no polyfill copies', () => {
  requireBuild();
  const assets = join(DIST, 'assets');
  const files = readdirSync(assets);
  const js = files.filter((f) => f.endsWith('.js'));
  assert.ok(js.length > 0, 'a script was built');
  const sources: string[] = [];
  for (const f of js) {
    const map = JSON.parse(readFileSync(join(assets, `${f}.map`), 'utf8')) as { sources: string[] };
    // Map sources are relative to the map; the checks read them from the repository root.
    sources.push(
      ...map.sources.map((s) => (s.startsWith('\0') || s.includes(':') ? s : relative(ROOT, resolve(assets, s)))),
    );
  }
  // The bundle does hold the core: lower() and the targets it lowers for.
  assert.ok(
    sources.includes('src/lower.ts') &&
      sources.includes('src/targets/vulkan/lower.ts') &&
      sources.includes('web/src/main.ts'),
    'the core and the page are bundled',
  );
  assert.deepEqual(nodeLeaks(sources, js.map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')), []);
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /https?:\/\//, 'the page loads nothing from other hosts');
});

test("docs/explorer-page.md's bundle size figures are the built bundle's (within 5%, so a small change elsewhere need not edit them)", () => {
  requireBuild();
  const readme = readFileSync(join(ROOT, 'docs/explorer-page.md'), 'utf8');
  // The sentence may wrap anywhere: any run of white space stands for one space.
  const m =
    /one\s+script\s+of\s+(\d+)\s+KB\s+minified,\s+\*\*(\d+)\s+KB\s+gzip\*\*,\s+and\s+([\d.]+)\s+KB\s+of\s+CSS\s+\(([\d.]+)\s+KB\s+gzip\)/.exec(
      readme,
    );
  assert.ok(
    m,
    "docs/explorer-page.md states the bundle size as 'one script of N KB minified, **N KB gzip**, and N KB of CSS " +
      "(N KB gzip)'",
  );
  const size = bundleSize();
  const stated = m.slice(1).map(Number);
  const measured = [size.js, size.jsGzip, size.css, size.cssGzip].map((n) => n / 1000);
  const names = ['script', 'script gzip', 'CSS', 'CSS gzip'];
  for (const [i, name] of names.entries()) {
    const off = Math.abs(stated[i] - measured[i]) / measured[i];
    assert.ok(
      off <= 0.05,
      `docs/explorer-page.md says ${name} ${stated[i]} KB, the build measures ${measured[i].toFixed(1)} KB (node ` +
        `--import tsx test/web/bundle-size.ts): update docs/explorer-page.md`,
    );
  }
});
