/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The explorer's views in Chromium: targets side by side from 1280 px, struct fields named in the
// drawings, the tooltip's offset/size/alignment/type against lower()'s JSON, and the Text view's
// outputs against lower() in each text format.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type LowerOptions, lower } from '../../src/index.js';
import { ARTIFACTS, editorText, pageOpener, settled } from './browser.js';

const noFiles = { readFile: (): undefined => undefined };

interface Field {
  name: string;
  offset: number;
  layout: { size: number; align: number; kind: string; type?: string; element?: string; length?: number };
}
interface Slot {
  name: string;
  offset: number;
  size: number;
  align?: number;
  typeName: string;
  layout?: { align: number; fields?: Field[] };
}

function slotOf(text: string, options: LowerOptions, name: string): Slot {
  const r = lower('kernel.cl', text, noFiles, { ...options, format: 'json' });
  assert.ok(r.output);
  const s = (JSON.parse(r.output) as { kernels: { args: Slot[] }[] }).kernels[0].args.find((a) => a.name === name);
  assert.ok(s, `slot ${name}`);
  return s;
}

/** The tooltip as shown: its title and its rows. */
async function tip(page: Page): Promise<{ title: string; rows: Record<string, string> }> {
  await page.waitForSelector('#tip:not([hidden])');
  return page.$eval('#tip', (el) => {
    const rows: Record<string, string> = {};
    const dts = [...el.querySelectorAll('dt')];
    for (const dt of dts) rows[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
    return { title: el.querySelector('strong')?.textContent ?? '', rows };
  });
}

/** Boxes of the target panels, left to right as laid out. */
function panelBoxes(
  page: Page,
): Promise<{ target: string; left: number; right: number; top: number; width: number }[]> {
  return page.$$eval('.panel', (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return {
        target: (e as HTMLElement).dataset.target ?? '',
        left: r.left,
        right: r.right,
        top: r.top,
        width: r.width,
      };
    }),
  );
}

describe('web page views', () => {
  const { open } = pageOpener({ before, after });

  test('from 1280 px the targets stand side by side in columns that scroll; the page never scrolls sideways', async (t) => {
    for (const [width, height, visible] of [
      [1280, 800, 2],
      [1920, 1080, 3],
    ] as const) {
      const page = await open(t, '', { viewport: { width, height } });
      if (!page) return;
      await page.selectOption('#example', 'darktable-bloom');
      await settled(page);
      const boxes = await panelBoxes(page);
      assert.deepEqual(
        boxes.map((b) => b.target),
        ['opencl', 'vulkan', 'amdhsa'],
      );
      assert.ok(
        boxes.every((b) => Math.abs(b.top - boxes[0].top) < 1),
        `${width}px: one row`,
      );
      for (let i = 1; i < boxes.length; i++)
        assert.ok(
          boxes[i].left >= boxes[i - 1].right,
          `${width}px: ${boxes[i].target} right of ${boxes[i - 1].target}`,
        );
      const fullyShown = boxes.filter((b) => b.right <= width).length;
      assert.ok(fullyShown >= visible, `${width}px: ${fullyShown} columns fully in view, want ${visible}`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${width}px: the page scrolls sideways by ${overflow}px`);
      // Each column scrolls on its own: none is taller than the window.
      const tallest = await page.$$eval('.panel', (els) =>
        Math.max(...els.map((e) => e.getBoundingClientRect().height)),
      );
      assert.ok(tallest <= height, `${width}px: a column ${tallest}px tall`);
      const overflowY = await page.$eval('.panel[data-target="amdhsa"]', (e) => getComputedStyle(e).overflowY);
      assert.equal(overflowY, 'auto');
      // The picture: the kernel with a local buffer, its `buffer` argument linked from amdhsa's drawing.
      await page.selectOption('#kernel', 'bloom_hblur');
      await settled(page);
      await page.click('svg[data-target="vulkan"] .slot[data-name="rad"]');
      await page.evaluate(() => {
        document.getElementById('panels')!.scrollLeft = 0;
        scrollTo(0, 0);
      });
      await page.hover('svg[data-target="vulkan"] .slot[data-name="rad"] .slot-name');
      await page.screenshot({ path: join(ARTIFACTS, `darktable-${width}.png`) });
      await page.close();
    }
    // Below 1280 px the panels wrap as before, and stack in a narrow window.
    const narrow = await open(t, '', { viewport: { width: 800, height: 800 } });
    if (!narrow) return;
    const boxes = await panelBoxes(narrow);
    assert.ok(boxes[1].top > boxes[0].top, 'stacked at 800 px');
  });

  test('struct fields are named in the byte drawings, and the tooltip gives offset, size, alignment and type as lower() does', async (t) => {
    const page = await open(t);
    if (!page) return;
    const text = await editorText(page);
    const probe = slotOf(text, { target: 'amdhsa' }, 'probe');
    assert.ok(probe.layout?.fields);
    // Fields: named inside the box, each where the plan puts it.
    const fields = await page.$$eval('svg[data-target="amdhsa"] .slot[data-name="probe"] .field', (els) =>
      els.map((e) => {
        const d = (e as SVGElement).dataset;
        return {
          name: d.field,
          offset: Number(d.offset),
          size: Number(d.size),
          align: Number(d.align),
          type: d.type,
          label: e.querySelector('text')?.textContent ?? '',
        };
      }),
    );
    const typeOf = (l: Field['layout']) => (l.kind === 'vector' ? `${l.element}${l.length}` : l.type);
    assert.deepEqual(
      fields.map(({ label: _l, ...f }) => f),
      probe.layout.fields.map((f) => ({
        name: f.name,
        offset: probe.offset + f.offset,
        size: f.layout.size,
        align: f.layout.align,
        type: typeOf(f.layout),
      })),
    );
    assert.ok(
      fields.some((f) => f.label === 'pos') && fields.some((f) => f.label === 'id'),
      `field names drawn: ${fields.map((f) => f.label).join(', ')}`,
    );
    // The slot's tooltip.
    await page.hover('svg[data-target="amdhsa"] .slot[data-name="probe"] .slot-name');
    const slotTip = await tip(page);
    assert.equal(slotTip.title, 'probe');
    assert.deepEqual(
      [slotTip.rows.type, slotTip.rows.offset, slotTip.rows.size, slotTip.rows.align],
      [probe.typeName, String(probe.offset), `${probe.size} bytes`, String(probe.align)],
    );
    // A field's tooltip: its place in the segment and in the struct.
    const pos = probe.layout.fields.find((f) => f.name === 'pos')!;
    await page.hover('svg[data-target="amdhsa"] .slot[data-name="probe"] .field[data-field="pos"] .field-box');
    const fieldTip = await tip(page);
    assert.equal(fieldTip.title, 'probe.pos');
    assert.deepEqual(
      [fieldTip.rows.type, fieldTip.rows.offset, fieldTip.rows.size, fieldTip.rows.align],
      [
        'float3',
        `${probe.offset + pos.offset} (${pos.offset} in probe)`,
        `${pos.layout.size} bytes`,
        String(pos.layout.align),
      ],
    );
    // vulkan's POD block: the same struct at clspv's offset.
    const vk = slotOf(text, { target: 'vulkan' }, 'probe');
    await page.hover('svg[data-target="vulkan"] .slot[data-name="probe"] .slot-name');
    const vkTip = await tip(page);
    assert.deepEqual([vkTip.rows.offset, vkTip.rows.align], [String(vk.offset), String(vk.layout?.align)]);
    // opencl's list: the argument index and clSetKernelArg's size.
    await page.hover('svg[data-target="opencl"] .slot[data-name="dt"]');
    const clTip = await tip(page);
    assert.deepEqual(
      [clTip.rows.type, clTip.rows.index, clTip.rows.arg_size, clTip.rows.align],
      ['double', '4', '8', '8'],
    );
    await page.mouse.move(0, 0);
    await page.waitForSelector('#tip', { state: 'hidden' });
    await page.hover('svg[data-target="amdhsa"] .slot[data-name="probe"] .field[data-field="pos"] .field-box');
    await page.screenshot({ path: join(ARTIFACTS, 'tooltip.png') });
  });

  test("the Text view shows each target's text formats as lower() writes them", async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.click('#pick-amd-cl2');
    await page.click('#pick-llvm');
    await page.click('#pick-r600');
    await page.click('button[data-view="text"]');
    await settled(page);
    const text = await editorText(page);
    const shown = (target: string) =>
      page.$eval(`.panel[data-target="${target}"] pre.text`, (e) => ({
        format: (e as HTMLElement).dataset.format,
        text: e.textContent,
      }));
    const expect = (target: LowerOptions['target'], format: string, file = 'kernel.cl', source = text) =>
      lower(file, source, noFiles, { target, format }).output;
    for (const [target, format] of [
      ['vulkan', 'descriptor-map'],
      ['amd-cl2', 'clrx'],
      ['llvm', 'llvm-ir'],
      ['r600', 'llvm-ir'],
      ['opencl', 'signatures'],
    ] as const) {
      const got = await shown(target);
      assert.equal(got.format, format, `${target}: first text format`);
      const want = expect(target, format);
      assert.ok(want && want.length > 0);
      assert.equal(got.text, want, `${target} ${format}`);
    }
    assert.match((await page.textContent('.panel[data-target="amdhsa"] .view')) ?? '', /no text format/);
    // tinytc: the generated OpenCL C and SPIR-V assembly.
    await page.selectOption('#example', 'tinytc');
    await settled(page);
    const ir = await editorText(page);
    assert.deepEqual(
      await page.$$eval('select[data-format-of="opencl"] option', (os) =>
        os.map((o) => (o as HTMLOptionElement).value),
      ),
      ['signatures', 'opencl-c', 'spirv', 'spirv-asm'],
    );
    await page.selectOption('select[data-format-of="opencl"]', 'opencl-c');
    await page.selectOption('select[data-format-of="vulkan"]', 'spirv-asm');
    await settled(page);
    const openclC = await shown('opencl');
    assert.equal(openclC.format, 'opencl-c');
    assert.equal(openclC.text, expect('opencl', 'opencl-c', 'kernel.ir', ir));
    assert.match(openclC.text ?? '', /kernel void scale/);
    const spirv = await shown('vulkan');
    assert.equal(spirv.text, expect('vulkan', 'spirv-asm', 'kernel.ir', ir));
    assert.match(spirv.text ?? '', /OpEntryPoint/);
    // The OpenCL SPIR-V of the same program, as `lower --target opencl --format spirv-asm` prints it.
    await page.selectOption('select[data-format-of="opencl"]', 'spirv-asm');
    await settled(page);
    const clSpirv = await shown('opencl');
    assert.equal(clSpirv.text, expect('opencl', 'spirv-asm', 'kernel.ir', ir));
    assert.match(clSpirv.text ?? '', /OpEntryPoint Kernel/);
  });
});
