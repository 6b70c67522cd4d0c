/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// cuda and zebin on the explorer page, in Chromium: their drawings hold lower()'s offsets and sizes,
// their tooltips give the `.param` declaration or IGC's arg_type, addrmode and source_offset, their
// option controls (from the target records) reach the core, and the Text view shows `ptx` and
// `ze-info` as lower() writes them, and the two-source mode lists kernarg diff's changes for both. The picture of
// OpenCL, CUDA and zebin side by side at 1920 px
// goes to test/.tmp/web/targets-1920.png (web/screenshot-targets.png is that picture, pngquant'd).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type LowerOptions, TARGET_RECORDS, abiView, diffViews, lower } from '../../src/index.js';
import { ARTIFACTS, editorText, pageOpener, settled, typeSource } from './browser.js';

const noFiles = { readFile: (): undefined => undefined };

const KERNEL = `typedef struct { char tag; long count; float3 dir; } Stats;
kernel void scale(global float *out, constant float4 *coeff, local float4 *tile, float k, Stats s, read_only image2d_t img, sampler_t smp) {
out[get_global_id(0)] = coeff[0].x * k + tile[0].x + s.count + read_imagef(img, smp, (int2)(0, 0)).x + get_image_width(img);
}`;
// pocl's CUDA driver refuses images and samplers (KA4405): its check uses a kernel without them.
const NO_IMAGES = 'kernel void sum(global float *out, local int *a, local float2 *b, int n) { out[0] = n; }';

interface Slot {
  name: string;
  param: number | null;
  offset?: number;
  size?: number;
  align?: number;
  typeName?: string;
  argType?: string;
  addrmode?: string;
  bindingTable?: boolean;
  pieces?: { sourceOffset: number; offset: number; size: number }[];
}
interface Kernel {
  name: string;
  args: Slot[];
  paramBytes?: number;
  payloadSize?: number;
  dynamicShared?: string[];
}

function optionsOf(target: 'cuda' | 'zebin', flags: Readonly<Record<string, string>> = {}): LowerOptions {
  let o: LowerOptions = { target };
  for (const [flag, value] of Object.entries(flags)) {
    const f = TARGET_RECORDS.find((r) => r.name === target)?.flags.find((x) => x.flag === flag);
    assert.ok(f && f.kind === 'choice');
    o = f.apply(o, value);
  }
  return o;
}

function kernelOf(text: string, options: LowerOptions): Kernel {
  const r = lower('kernel.cl', text, noFiles, { ...options, format: 'json' });
  assert.ok(r.output, r.diagnostics.map((d) => d.message).join('; '));
  return (JSON.parse(r.output) as { kernels: Kernel[] }).kernels[0];
}

/** The boxes of one lane kind as drawn: every data-* attribute of each. */
function drawn(page: Page, target: string, which: string): Promise<Record<string, string | undefined>[]> {
  return page.$$eval(`svg[data-target="${target}"] .slot${which}`, (els) =>
    els.map((e) => ({ ...(e as SVGElement).dataset })),
  );
}

async function tip(page: Page, selector: string): Promise<{ title: string; rows: Record<string, string> }> {
  await page.mouse.move(0, 0);
  await page.hover(selector);
  await page.waitForSelector('#tip:not([hidden])');
  return page.$eval('#tip', (el) => {
    const rows: Record<string, string> = {};
    for (const dt of el.querySelectorAll('dt')) rows[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
    return { title: el.querySelector('strong')?.textContent ?? '', rows };
  });
}

async function pickOpenclCudaZebin(page: Page): Promise<void> {
  for (const t of ['vulkan', 'amdhsa', 'cuda', 'zebin']) await page.click(`#pick-${t}`);
  await settled(page);
  assert.deepEqual(await page.$$eval('.panel', (els) => els.map((e) => (e as HTMLElement).dataset.target)), [
    'opencl',
    'cuda',
    'zebin',
  ]);
}

describe('web page: cuda and zebin', () => {
  const { open } = pageOpener({ before, after });

  test("drawings at lower()'s offsets and sizes, tooltips, and the picture at 1920 px", async (t) => {
    const page = await open(t, '', { viewport: { width: 1920, height: 1080 } });
    if (!page) return;
    await typeSource(page, KERNEL);
    await pickOpenclCudaZebin(page);
    const text = await editorText(page);

    // cuda: the parameter buffer, one box per .param at its offset.
    const cu = kernelOf(text, optionsOf('cuda'));
    const grid = await drawn(page, 'cuda', '[data-ptx]');
    assert.deepEqual(
      grid.map((d) => [d.name, Number(d.offset), Number(d.size), Number(d.index)]),
      cu.args.map((s, i) => [s.name, s.offset, s.size, i]),
    );
    const ptx = lower('kernel.cl', text, noFiles, { ...optionsOf('cuda'), format: 'ptx' }).output ?? '';
    for (const d of grid) assert.ok(ptx.includes(`\t${d.ptx}`), `${d.ptx} in --format ptx`);
    assert.deepEqual(
      (await drawn(page, 'cuda', '[data-param]')).map((d) => [d.name, Number(d.index)]),
      cu.args.map((s, i) => [s.name, i]),
    );
    assert.deepEqual(
      (await drawn(page, 'cuda', '[data-shared]')).map((d) => d.name),
      cu.dynamicShared,
    );
    // Struct fields named inside the box, as in the other byte grids.
    const fields = await page.$$eval('svg[data-target="cuda"] .slot[data-ptx][data-name="s"] .field', (els) =>
      els.map((e) => [(e as SVGElement).dataset.field, Number((e as SVGElement).dataset.offset)]),
    );
    const s = cu.args.find((a) => a.name === 's')!;
    assert.deepEqual(
      fields.map(([f]) => f),
      ['tag', 'count', 'dir'],
    );
    assert.equal(fields[0][1], s.offset);
    const cuTip = await tip(page, 'svg[data-target="cuda"] .slot[data-ptx][data-name="s"] .slot-name');
    assert.equal(cuTip.title, 's');
    assert.deepEqual(
      [cuTip.rows['.param'], cuTip.rows.offset, cuTip.rows.size, cuTip.rows.align, cuTip.rows.type],
      [
        `.param .align ${s.align} .b8 scale_param_4[${s.size}]`,
        String(s.offset),
        `${s.size} bytes`,
        String(s.align),
        'Stats',
      ],
    );

    // zebin: the payload (header greyed, pieces of s at their source_offset) and the binding table.
    const ze = kernelOf(text, optionsOf('zebin'));
    const payload = await drawn(page, 'zebin', ':is([data-arg-type],[data-piece])');
    const want = ze.args.flatMap((a) =>
      a.addrmode === 'stateful' ? [] : a.pieces ? a.pieces.map((p) => [p.offset, p.size]) : [[a.offset, a.size]],
    );
    assert.deepEqual(
      payload.map((d) => [Number(d.offset), Number(d.size)]),
      want,
    );
    const header = payload.filter((d) => d.name?.startsWith('payload_header.'));
    assert.equal(header.length, 2);
    assert.ok(header.every((d) => d.mark === 'hidden'));
    const greyed = await page.$eval(
      'svg[data-target="zebin"] .slot[data-name="payload_header.local_size"]',
      (e) => e.classList.contains('neutral') && e.classList.contains('mark-hidden'),
    );
    assert.ok(greyed, "the payload header is drawn as amdhsa's hidden arguments are");
    const zs = ze.args.find((a) => a.name === 's')!;
    assert.ok(zs.pieces && zs.pieces.length >= 2, 'Stats travels as pieces');
    const piece = zs.pieces[1];
    const zeTip = await tip(
      page,
      `svg[data-target="zebin"] .slot[data-piece][data-source-offset="${piece.sourceOffset}"] .slot-box`,
    );
    assert.deepEqual(
      [zeTip.title, zeTip.rows.arg_type, zeTip.rows.source_offset, zeTip.rows.offset, zeTip.rows.size],
      [
        `s+${piece.sourceOffset}`,
        'arg_byvalue',
        String(piece.sourceOffset),
        String(piece.offset),
        `${piece.size} bytes`,
      ],
    );
    const out = ze.args.find((a) => a.name === 'out')!;
    const outTip = await tip(page, 'svg[data-target="zebin"] .slot[data-arg-type][data-name="out"] .slot-box');
    assert.deepEqual(
      [outTip.rows.arg_type, outTip.rows.addrmode, outTip.rows.offset, outTip.rows.size],
      [out.argType, out.addrmode, String(out.offset), `${out.size} bytes`],
    );
    assert.deepEqual(
      (await drawn(page, 'zebin', '[data-bti]')).map((d) => d.name),
      ze.args.filter((a) => a.bindingTable || a.addrmode === 'stateful').map((a) => a.name),
    );

    // The picture: OpenCL, CUDA and zebin side by side, the struct's piece hovered.
    await page.evaluate(() => scrollTo(0, 0));
    await page.hover(
      `svg[data-target="zebin"] .slot[data-piece][data-source-offset="${piece.sourceOffset}"] .slot-box`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'targets-1920.png') });
  });

  test('the option controls come from the target records and reach the core; the Text view offers ptx and ze-info', async (t) => {
    const page = await open(t);
    if (!page) return;
    await typeSource(page, KERNEL);
    await pickOpenclCudaZebin(page);
    for (const [target, kind] of [
      ['cuda', 'select'],
      ['zebin', 'select'],
      ['zebin', 'input'],
    ] as const)
      assert.ok(
        (await page.$$(`.panel[data-target="${target}"] ${kind}[data-option]`)).length > 0,
        `${target} ${kind}`,
      );
    const options = await page.$$eval('[data-option^="cuda."], [data-option^="zebin."]', (els) =>
      els.map((e) => (e as HTMLElement).dataset.option),
    );
    const fromRecords = TARGET_RECORDS.filter((r) => r.name === 'cuda' || r.name === 'zebin').flatMap((r) =>
      r.flags.filter((f) => f.kind === 'choice' || f.kind === 'boolean').map((f) => `${r.name}.${f.flag}`),
    );
    assert.deepEqual(options.sort(), fromRecords.sort());

    // zebin on TGL: the device reaches the core (buffers as TGL passes them).
    await page.selectOption('select[data-option="zebin.device"]', 'tgllp');
    await settled(page);
    const text = await editorText(page);
    const tgl = kernelOf(text, optionsOf('zebin', { device: 'tgllp' }));
    const pvc = kernelOf(text, optionsOf('zebin'));
    const outTgl = tgl.args.find((a) => a.name === 'out')!;
    assert.notEqual(
      outTgl.argType,
      pvc.args.find((a) => a.name === 'out')!.argType,
      'tgllp and pvc pass buffers differently',
    );
    const outTip = await tip(page, 'svg[data-target="zebin"] .slot[data-arg-type][data-name="out"] .slot-box');
    assert.equal(outTip.rows.arg_type, outTgl.argType);
    assert.equal(outTip.rows.offset, String(outTgl.offset));

    // The Text view: ptx and ze-info as lower() writes them.
    await page.click('button[data-view="text"]');
    await settled(page);
    const shown = (target: string) =>
      page.$eval(`.panel[data-target="${target}"] pre.text`, (e) => ({
        format: (e as HTMLElement).dataset.format,
        text: e.textContent,
      }));
    const cuText = await shown('cuda');
    assert.equal(cuText.format, 'ptx');
    assert.equal(cuText.text, lower('kernel.cl', text, noFiles, { ...optionsOf('cuda'), format: 'ptx' }).output);
    const zeText = await shown('zebin');
    assert.equal(zeText.format, 'ze-info');
    assert.equal(
      zeText.text,
      lower('kernel.cl', text, noFiles, { ...optionsOf('zebin', { device: 'tgllp' }), format: 'ze-info' }).output,
    );
    assert.match(zeText.text ?? '', /payload_arguments:/);

    // pocl's local memory: its four hidden parameters appear, greyed, and the blocks become .u32 offsets.
    await page.click('button[data-view="drawing"]');
    await typeSource(page, NO_IMAGES);
    await page.selectOption('select[data-option="cuda.local-memory"]', 'pocl');
    await settled(page);
    const pocl = kernelOf(await editorText(page), optionsOf('cuda', { 'local-memory': 'pocl' }));
    const grid = await drawn(page, 'cuda', '[data-ptx]');
    assert.deepEqual(
      grid.map((d) => [d.name, Number(d.offset), Number(d.size), d.mark]),
      pocl.args.map((s) => [s.name, s.offset, s.size, s.param === null ? 'hidden' : 'arg']),
    );
    assert.ok(grid.some((d) => d.name === '_work_dim' && d.mark === 'hidden'));
    assert.ok(grid.filter((d) => d.name === 'a' || d.name === 'b').every((d) => d.ptx?.startsWith('.param .u32 ')));
  });

  test("two-source mode: kernarg diff's changes for cuda and zebin, the breaking slots outlined (zebin's struct pieces too)", async (t) => {
    const page = await open(t);
    if (!page) return;
    for (const x of ['vulkan', 'amdhsa', 'cuda', 'zebin']) await page.click(`#pick-${x}`);
    await page.click('#compare');
    const oldSrc =
      'typedef struct { char tag; long count; } S;\nkernel void k(global float *a, S s, float f) { a[0] = f; }';
    const newSrc =
      'typedef struct { char tag; int count; } S;\nkernel void k(global float *a, S s, float f) { a[0] = f; }';
    await typeSource(page, oldSrc, '#old-editor');
    await typeSource(page, newSrc);
    await settled(page);
    const newText = await editorText(page);
    const oldText = await editorText(page, '#old-editor');
    for (const target of ['cuda', 'zebin'] as const) {
      const o = lower('old.cl', oldText, noFiles, { target });
      const n = lower('kernel.cl', newText, noFiles, { target });
      assert.ok(o.plan && n.plan);
      const expected = diffViews(abiView(o.plan), abiView(n.plan));
      assert.ok(expected.breaking > 0, `${target}: the change breaks`);
      const shown: Record<string, string | undefined>[] = await page.$$eval(
        `.panel[data-target="${target}"] .changes li`,
        (els) => els.map((e) => ({ ...(e as HTMLElement).dataset })),
      );
      assert.deepEqual(
        shown.map((c) => [c.class, c.slot, c.property]),
        expected.changes.map((c) => [c.class, c.slot ?? '', c.property ?? '']),
        `${target}: the page lists kernarg diff's changes`,
      );
      const outlined = await page.$$eval(`svg[data-target="${target}"] .slot.breaking`, (els) =>
        els.map((e) => (e as SVGElement).dataset.name),
      );
      assert.ok(
        outlined.length > 0 && outlined.every((name) => name === 's' || name === 'f'),
        `${target}: outlined ${outlined.join(', ')}`,
      );
      // Every box of s is outlined: zebin's pieces, cuda's parameter and its kernelParams row.
      const boxesOfS = await page.$$eval(`svg[data-target="${target}"] .slot[data-name="s"]`, (els) =>
        els.map((e) => e.classList.contains('breaking')),
      );
      assert.ok(boxesOfS.length > 0 && boxesOfS.every(Boolean), `${target}: s outlined in every box`);
    }
  });
});
