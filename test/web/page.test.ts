/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The explorer page in a real browser (Debian's chromium through playwright-core): drawn slots
// against lower()'s JSON, inline diagnostics, the share link, export, linking and keyboard use.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type LowerOptions, SourceFile, abiView, diffViews, lower } from '../../src/index.js';
import { ARTIFACTS, editorText, launch, serveDist, settled, typeSource } from './browser.js';

const noFiles = { readFile: (): undefined => undefined };
const FILE = 'kernel.cl'; // the page compiles its text as kernel.cl (kernel.ir for tinytc)

interface JsonSlot {
  name: string;
  param: number | null;
  offset?: number;
  size?: number | null;
  index?: number;
  argSize?: number;
  descriptorSet?: number;
  binding?: number;
  specId?: number;
  argKind?: string;
}
interface JsonPlan {
  kernels: { name: string; args: JsonSlot[] }[];
}

function planOf(text: string, options: LowerOptions): JsonPlan {
  const r = lower(FILE, text, noFiles, { ...options, format: 'json' });
  assert.ok(r.output, `lower failed: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return JSON.parse(r.output) as JsonPlan;
}

/** Every slot group of one target's drawing, with its data-* attributes. */
function slotsOf(page: Page, target: string): Promise<Record<string, string>[]> {
  return page.$$eval(`svg.drawing[data-target="${target}"] .slot[data-slot]`, (els) =>
    els.map((e) => ({ ...(e as SVGElement).dataset }) as Record<string, string>),
  );
}

/** Each vulkan slot drawn once, in its lane: POD block or push constants, spec constant, binding. */
function checkVulkan(args: JsonSlot[], drawn: Record<string, string>[]): void {
  for (const [i, a] of args.entries()) {
    const d = drawn.filter((x) => x.slot === String(i));
    assert.equal(d.length, 1, `vulkan: slot ${a.name} drawn once`);
    const got = d[0];
    if (a.argKind === 'pod_pushconstant')
      assert.deepEqual(
        [Number(got.offset), Number(got.size), got.push],
        [a.offset, a.argSize, '1'],
        `vulkan push constant ${a.name}`,
      );
    else if (a.argKind === 'pod' || a.argKind === 'pod_ubo')
      assert.deepEqual(
        [Number(got.offset), Number(got.size), Number(got.set), Number(got.binding)],
        [a.offset, a.argSize, a.descriptorSet, a.binding],
        `vulkan POD ${a.name}`,
      );
    else if (a.specId !== undefined) assert.equal(Number(got.spec), a.specId, `vulkan spec id of ${a.name}`);
    else
      assert.deepEqual(
        [Number(got.set), Number(got.binding)],
        [a.descriptorSet, a.binding],
        `vulkan binding of ${a.name}`,
      );
  }
}

let browser: Browser | null = null;
let server: Server | undefined;
let url = '';

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ server, url } = await serveDist());
});
after(async () => {
  await browser?.close();
  server?.close();
});

async function open(
  t: import('node:test').TestContext,
  path = '',
  options: Parameters<Browser['newPage']>[0] = {},
): Promise<Page | null> {
  browser ??= await launch(t);
  if (!browser) return null;
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, ...options });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  t.after(async () => {
    await page.close();
    assert.deepEqual(errors, [], 'the page threw');
  });
  await page.goto(url + path);
  await settled(page);
  return page;
}

const KERNEL = [
  'typedef struct { char tag; float3 pos; int id; } P;',
  'kernel void k(global P* ps, P p, float3 g, read_only image2d_t img,',
  'local float* tile, char c, int4 v, long n, constant int* lut) {}',
].join('\n');

describe('web page', () => {
  test("drawn slots have the offsets and sizes of lower()'s JSON (amdhsa, amd-cl2, r600, vulkan, opencl)", async (t) => {
    const page = await open(t);
    if (!page) return;
    await typeSource(page, KERNEL);
    await settled(page);
    // The editor indents continuation lines as they are typed; the page lowers what it holds.
    const text = await editorText(page);
    assert.equal(text.replace(/\s+/g, ' '), KERNEL.replace(/\s+/g, ' '));
    // vulkan with clspv's default options first: PODs clustered in a storage buffer.
    checkVulkan(planOf(text, { target: 'vulkan' }).kernels[0].args, await slotsOf(page, 'vulkan'));
    // Pick the targets by clicking: amd-cl2 and r600 on, and POD push constants for vulkan.
    await page.click('#pick-amd-cl2');
    await page.click('#pick-r600');
    // clspv's many options are folded away until opened.
    await page.click('.panel[data-target="vulkan"] .options-fold > summary');
    await page.check('input[data-option="vulkan.pod-pushconstant"]');
    await page.selectOption('select[data-option="amdhsa.code-object"]', '4');
    await settled(page);

    for (const [target, options] of [
      ['amdhsa', { target: 'amdhsa', amdhsa: { codeObject: 4 } }],
      ['amd-cl2', { target: 'amd-cl2' }],
      ['r600', { target: 'r600' }],
    ] as const) {
      const args = planOf(text, options).kernels[0].args;
      const drawn = await slotsOf(page, target);
      assert.equal(drawn.length, args.length, `${target}: one box per slot`);
      for (const [i, a] of args.entries()) {
        const d = drawn.find((x) => x.slot === String(i));
        assert.ok(d, `${target}: slot ${a.name} drawn`);
        assert.deepEqual([d.name, Number(d.offset), Number(d.size)], [a.name, a.offset, a.size], `${target} slot ${i}`);
      }
    }

    const vk = planOf(text, { target: 'vulkan', vulkan: { podPushConstant: true } }).kernels[0].args;
    checkVulkan(vk, await slotsOf(page, 'vulkan'));
    assert.ok(
      vk.some((a) => a.argKind === 'pod_pushconstant'),
      'the option reached the core',
    );

    const cl = planOf(text, { target: 'opencl' }).kernels[0].args;
    const clDrawn = await slotsOf(page, 'opencl');
    assert.deepEqual(
      clDrawn.map((d) => [d.name, Number(d.index), d.size === 'local' ? null : Number(d.size)]),
      cl.map((a) => [a.name, a.index, a.size]),
    );
    await page.screenshot({ path: join(ARTIFACTS, 'five-targets.png'), fullPage: true });
  });

  test('an invalid kernel shows its diagnostic under the line lower() names (offline)', async (t) => {
    const page = await open(t);
    if (!page) return;
    // Once loaded the page needs no network: everything below runs offline.
    await page.context().setOffline(true);
    const bad = 'kernel void k(global int* a,\n              int n,\n              unknown_t b) {}\n';
    await typeSource(page, bad);
    await settled(page);
    const [d] = lower(FILE, bad, noFiles, { target: 'opencl' }).diagnostics;
    assert.ok(d?.span);
    const line = new SourceFile(FILE, bad).lineCol(d.span.start).line;
    assert.equal(line, 3);
    const shown = await page.$$eval('#editor .cm-inline-diag', (els) =>
      els.map((e) => ({
        line: (e as HTMLElement).dataset.line,
        code: (e as HTMLElement).dataset.code,
        text: e.textContent,
      })),
    );
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.equal(shown[0].line, String(line));
    assert.equal(shown[0].code, d.code);
    assert.ok(shown[0].text?.includes(d.message) && shown[0].text.includes(`[${d.code}]`));
    // It sits right under line 3 of the editor, and the span is underlined.
    const gap = await page.evaluate((n) => {
      const num = [...document.querySelectorAll('#editor .cm-lineNumbers .cm-gutterElement')].find(
        (g) => g.textContent === String(n),
      )!;
      const w = document.querySelector('#editor .cm-inline-diag')!;
      return w.getBoundingClientRect().top - num.getBoundingClientRect().bottom;
    }, line);
    assert.ok(Math.abs(gap) < 4, `widget ${gap}px from line ${line}`);
    assert.equal(await page.textContent('#editor .cm-diag-range'), bad.slice(d.span.start, d.span.end));
    await page.screenshot({ path: join(ARTIFACTS, 'diagnostic.png') });
  });

  test('the share link round-trips source and options', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // FAST (a -D define) adds a kernel whose read_write image needs OpenCL C 2.0.
    const source =
      'kernel void shared_k(global float* x, int3 n) {}\n#ifdef FAST\nkernel void fast_k(read_write image2d_t img) ' +
      '{}\n#endif\n';
    await typeSource(page, source);
    await page.fill('#defines', 'N=4 FAST');
    await page.selectOption('#std', 'CL2.0');
    await page.click('#pick-llvm');
    await page.click('#pick-opencl');
    await page.selectOption('select[data-option="llvm.metadata"]', 'legacy');
    await page.click('.panel[data-target="vulkan"] .options-fold > summary');
    await page.selectOption('select[data-option="vulkan.cluster-pod-kernel-args"]', '0');
    await page.click('button[data-view="table"]');
    await settled(page);
    await page.click('#share');
    await page.waitForFunction(() => document.getElementById('share-status')?.textContent !== '');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /#z=[\w-]+$/);
    assert.equal(link, await page.evaluate(() => location.href), 'the address bar holds the same link');

    const again = await open(t, link.slice(url.length));
    if (!again) return;
    assert.equal(await editorText(again), source);
    assert.equal(await again.inputValue('#defines'), 'N=4 FAST');
    assert.equal(await again.inputValue('#std'), 'CL2.0');
    const picked = await again.$$eval('#target-picker input', (els) =>
      els.filter((e) => (e as HTMLInputElement).checked).map((e) => (e as HTMLInputElement).value),
    );
    assert.deepEqual(picked, ['vulkan', 'amdhsa', 'llvm']);
    assert.equal(await again.inputValue('select[data-option="llvm.metadata"]'), 'legacy');
    assert.equal(await again.inputValue('select[data-option="vulkan.cluster-pod-kernel-args"]'), '0');
    assert.equal(await again.getAttribute('button[data-view="table"]', 'aria-checked'), 'true');
    // The table shown is the core's table for those options.
    const table = lower(FILE, source, noFiles, {
      target: 'llvm',
      format: 'table',
      std: 'CL2.0',
      defines: [
        ['N', '4'],
        ['FAST', undefined],
      ],
      llvm: { metadata: 'legacy' },
    }).output;
    assert.equal(await again.textContent('.panel[data-target="llvm"] pre'), table);
    assert.match(table ?? '', /fast_k/, 'the define and the version reached the core');
    assert.deepEqual(await again.$$eval('#kernel option', (os) => os.map((o) => o.textContent)), [
      'shared_k',
      'fast_k',
    ]);
  });

  test('hovering a slot or putting the cursor on an argument highlights it everywhere', async (t) => {
    const page = await open(t);
    if (!page) return;
    await typeSource(page, KERNEL);
    await settled(page);
    const key = await page.getAttribute('svg[data-target="amdhsa"] .slot[data-name="p"]', 'data-key');
    await page.hover('svg[data-target="amdhsa"] .slot[data-name="p"]');
    const lit = await page.$$eval('.slot.hl', (els) =>
      els.map((e) => `${e.closest('svg')!.dataset.target}:${(e as SVGElement).dataset.name}`),
    );
    assert.deepEqual(lit.sort(), ['amdhsa:p', 'opencl:p', 'vulkan:p']);
    assert.equal(await page.textContent('#editor .cm-arg-marked'), 'p');
    // From the source: the cursor on `g` lights g's slots.
    const at = (await editorText(page)).indexOf('float3 g') + 7;
    await page.evaluate(() => (document.querySelector('#editor .cm-content') as HTMLElement).focus());
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < at; i++) await page.keyboard.press('ArrowRight');
    const g = await page.$$eval('.slot.hl', (els) => [...new Set(els.map((e) => (e as SVGElement).dataset.name))]);
    assert.deepEqual(g, ['g']);
    assert.notEqual(key, null);
    await page.screenshot({ path: join(ARTIFACTS, 'linked.png'), fullPage: true });
  });

  test('copy as JSON and SVG/PNG export give the plan and the drawing', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('.panel[data-target="amdhsa"] [data-action="copy-json"]');
    const source = await editorText(page);
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      lower(FILE, source, noFiles, { target: 'amdhsa', format: 'json' }).output,
    );
    const [svgDl] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.panel[data-target="vulkan"] [data-action="export-svg"]'),
    ]);
    const svgText = readFileSync((await svgDl.path())!, 'utf8');
    assert.match(svgDl.suggestedFilename(), /^kernarg-vulkan-advance\.svg$/);
    assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.ok(svgText.includes('data-name="probe"') && /style="fill:/.test(svgText), 'named slots with inline styles');
    const [pngDl] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.panel[data-target="amdhsa"] [data-action="export-png"]'),
    ]);
    const png = readFileSync((await pngDl.path())!);
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
    assert.ok(png.readUInt32BE(16) >= 800, 'drawn at twice the drawing width');
  });

  test('every control is reachable with the keyboard alone, with visible focus', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.click('#pick-amd-cl2');
    await page.click('#pick-llvm');
    await page.click('#pick-r600');
    await settled(page);
    // Controls: form fields, buttons, the editor, and one tab stop per drawing.
    // Both editors: the old one shows in two-source mode.
    await page.click('#compare');
    await settled(page);
    const controls = await page.$$eval(
      'select:not(:disabled), input:not(:disabled), button:not(:disabled), .cm-content, svg.drawing ' +
        '.slot[tabindex="0"]',
      (els) => {
        const shown = els.filter((e) => e.checkVisibility());
        shown.forEach((e, i) => e.setAttribute('data-probe', String(i)));
        return shown.length;
      },
    );
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached = new Set<string>();
    const unfocused: string[] = [];
    for (let i = 0; i < controls + 10 && reached.size < controls; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement | SVGElement | null;
        if (!a) return null;
        const box = a.querySelector?.('.slot-box');
        const visible = box
          ? getComputedStyle(box).strokeWidth === '3.5px'
          : a.matches('.cm-content')
            ? getComputedStyle(a.closest('.editor')!).outlineStyle !== 'none'
            : getComputedStyle(a).outlineStyle !== 'none';
        return { probe: a.getAttribute('data-probe'), visible, what: a.outerHTML.slice(0, 80) };
      });
      if (info?.probe != null) {
        reached.add(info.probe);
        if (!info.visible) unfocused.push(info.what);
      }
    }
    assert.equal(reached.size, controls, `reached ${reached.size} of ${controls} controls with Tab`);
    assert.deepEqual(unfocused, [], 'focus is visible on every control');
    // Inside a drawing the arrow keys walk the slots and Enter selects the argument's source.
    await page.focus('svg[data-target="amdhsa"] .slot[tabindex="0"]');
    await page.keyboard.press('ArrowRight');
    const name = await page.evaluate(() => (document.activeElement as SVGElement).dataset.name);
    assert.equal(name, 'probe');
    await page.keyboard.press('Enter');
    const sel = await page.evaluate(() => getSelection()?.toString());
    assert.equal(sel, 'probe');
  });

  test("two-source mode lists kernarg diff's changes and outlines the breaking slots", async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.click('#compare');
    const oldSrc = 'kernel void k(global float* a, int n, float s) {}';
    const newSrc = 'kernel void k(global float* a, long n, float s, int extra) {}';
    await typeSource(page, oldSrc, '#old-editor');
    await typeSource(page, newSrc);
    await settled(page);
    assert.equal(await editorText(page, '#old-editor'), oldSrc);
    for (const target of ['amdhsa', 'vulkan', 'opencl'] as const) {
      const o = lower('old.cl', oldSrc, noFiles, { target });
      const n = lower(FILE, newSrc, noFiles, { target });
      assert.ok(o.plan && n.plan);
      const expected = diffViews(abiView(o.plan), abiView(n.plan));
      assert.ok(expected.breaking > 0, `${target}: the change breaks`);
      const shown: Record<string, string | undefined>[] = await page.$$eval(
        `.panel[data-target="${target}"] .changes li`,
        (els) => els.map((e) => ({ ...(e as HTMLElement).dataset })),
      );
      assert.deepEqual(
        shown.map((s) => [s.class, s.kernel, s.slot, s.change, s.property]),
        expected.changes.map((c) => [c.class, c.kernel ?? '', c.slot ?? '', c.change, c.property ?? '']),
        `${target}: the page lists kernarg diff's changes`,
      );
      const outlined: (string | undefined)[] = await page.$$eval(`svg[data-target="${target}"] .slot.breaking`, (els) =>
        [...new Set(els.map((e) => (e as SVGElement).dataset.name))].sort(),
      );
      const drawn = new Set<string | undefined>(
        await page.$$eval(`svg[data-target="${target}"] .slot[data-slot]`, (els) =>
          els.map((e) => (e as SVGElement).dataset.name),
        ),
      );
      const breaking: (string | null)[] = [
        ...new Set(
          expected.changes
            .filter((c) => c.class === 'breaking' && c.kernel === 'k' && c.slot !== null && drawn.has(c.slot))
            .map((c) => c.slot),
        ),
      ].sort();
      assert.ok(breaking.length > 0);
      assert.deepEqual(outlined, breaking, `${target}: breaking slots outlined`);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'two-source.png'), fullPage: true });
  });

  test('screenshots: light and dark, 100% and 200% zoom, without page-wide horizontal scrolling', async (t) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const zoom of [1, 2]) {
        const page = await open(t, '', {
          colorScheme,
          viewport: { width: Math.round(1440 / zoom), height: Math.round(900 / zoom) },
          deviceScaleFactor: zoom,
        });
        if (!page) return;
        await page.screenshot({ path: join(ARTIFACTS, `page-${colorScheme}-${zoom * 100}.png`), fullPage: true });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${colorScheme} at ${zoom * 100}%: page scrolls sideways by ${overflow}px`);
        await page.close();
      }
    }
    // A picture of the first example with one argument highlighted (the README's are views.test.ts's darktable ones).
    const page = await open(t, '', { viewport: { width: 1500, height: 940 } });
    if (!page) return;
    await page.evaluate(() => {
      (document.querySelector('svg[data-target="vulkan"] .slot[data-name="probe"]') as SVGGElement).focus({
        preventScroll: true,
      });
      scrollTo(0, 0);
    });
    await page.screenshot({ path: join(ARTIFACTS, 'readme.png') });
  });
});
