/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// A compiled kernel opened on the explorer page (the file picker; a drop goes the same way): an
// AMDGPU code object, PTX, OpenCL SPIR-V and a zebin each show the plan read from their bytes,
// drawn in their target's panel as a source's plan is, the table and JSON those of `kernarg lower
// <binary>`; a file no reader knows is a diagnostic; editing the source goes back to lowering it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type AbiPlan, emitJson, lower, readBinary, targetNamed } from '../../src/index.js';
import { pageOpener, settled, typeSource } from './browser.js';

const READERS = join(import.meta.dirname, '..', 'readers');

/** PTX text as a module starts (`.version` first), its `.entry` list from kernarg's cuda target. */
function ptxModule(): Uint8Array {
  const r = lower(
    'k.cl',
    'kernel void saxpy(global float *y, global const float *x, float a, int4 n) {}',
    { readFile: () => undefined },
    { target: 'cuda', format: 'ptx' },
  );
  assert.ok(r.output, r.diagnostics.map((d) => d.message).join('; '));
  return new TextEncoder().encode(`.version 7.0\n.target sm_50\n.address_size 64\n\n${r.output}`);
}

const BINARIES: readonly { name: string; bytes: Uint8Array; target: string }[] = [
  { name: 'kinds.hsaco', bytes: readFileSync(join(READERS, 'code-objects', 'kinds.22.co6.o')), target: 'amdhsa' },
  { name: 'saxpy.ptx', bytes: ptxModule(), target: 'cuda' },
  { name: 'by-value.spv', bytes: readFileSync(join(READERS, 'spirv', 'by-value.spv')), target: 'opencl' },
  { name: 'hand-images.bin', bytes: readFileSync(join(READERS, 'zebins', 'hand-images.pvc.zebin')), target: 'zebin' },
];

async function openFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.setInputFiles('#file-input', { name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await page.waitForFunction(
    (n) =>
      document.getElementById('files-status')?.textContent?.includes(n) ||
      document.querySelector('#messages li') !== null,
    name,
  );
  await settled(page);
}

/** The slots drawn for the shown kernel of one target: each box's data-* attributes (`slot` is the slot's index). */
function drawnSlots(page: Page, target: string): Promise<Record<string, string>[]> {
  return page.$$eval(`svg.drawing[data-target="${target}"] .slot[data-slot]`, (els) =>
    els.map((e) => ({ ...(e as SVGElement).dataset }) as Record<string, string>),
  );
}

describe('the explorer page reads a compiled kernel', () => {
  const { open } = pageOpener({ before, after });

  for (const b of BINARIES) {
    test(`${b.name}: the ${b.target} plan read from its bytes is drawn, and its JSON is kernarg lower's`, async (t) => {
      const page = await open(t);
      if (!page) return;
      await openFile(page, b.name, b.bytes);
      const read = readBinary(b.bytes, b.name);
      assert.ok(read.plan, read.diagnostics.map((d) => d.message).join('; '));
      const plan: AbiPlan = read.plan;
      assert.equal(plan.target, b.target);
      assert.match(
        await page.$eval('#files-status', (e) => e.textContent ?? ''),
        new RegExp(`showing the plan read from ${b.name.replace('.', '\\.')} \\(${b.target}\\)`),
      );
      // Only the binary's target has a panel, and its kernel list is the binary's.
      assert.deepEqual(
        await page.$$eval('#target-picker input:checked', (els) => els.map((e) => (e as HTMLInputElement).value)),
        [b.target],
      );
      assert.deepEqual(
        await page.$$eval('#kernel option', (els) => els.map((e) => (e as HTMLOptionElement).value)),
        plan.kernels.map((k) => k.name),
      );
      const first = plan.kernels[0];
      const drawn = await drawnSlots(page, b.target);
      // Every slot of the plan read has a box, at the offset and of the size the plan says where it has one.
      for (const [i, a] of first.args.entries()) {
        const box = drawn.find((d) => d.slot === String(i));
        assert.ok(box, `${b.name}: slot ${i} (${a.name}) is not drawn`);
        const at = a as { offset?: number; size?: number | null };
        if (box.offset !== undefined && at.offset !== undefined)
          assert.equal(Number(box.offset), at.offset, `${a.name}: offset`);
        if (box.size !== undefined && typeof at.size === 'number')
          assert.equal(Number(box.size), at.size, `${a.name}: size`);
      }
      await page.click('[data-view="json"]');
      await settled(page);
      assert.equal(await page.$eval(`pre[aria-label="${b.target} JSON"]`, (e) => e.textContent ?? ''), emitJson(plan));
      await page.click('[data-view="table"]');
      await settled(page);
      assert.equal(
        await page.$eval(`pre[aria-label="${b.target} table"]`, (e) => e.textContent ?? ''),
        targetNamed(plan.target)!.table(plan),
      );
    });
  }

  test('a file no reader knows is a diagnostic; editing the source lowers it again', async (t) => {
    const page = await open(t);
    if (!page) return;
    await openFile(page, 'junk.bin', new TextEncoder().encode('not a kernel at all'));
    assert.match(
      await page.$eval('#messages', (e) => e.textContent ?? ''),
      /not a kind of compiled kernel kernarg reads.*KA7040/,
    );
    await openFile(page, 'kinds.hsaco', readFileSync(join(READERS, 'code-objects', 'kinds.22.co6.o')));
    assert.deepEqual(await page.$$eval('#kernel option', (els) => els.map((e) => (e as HTMLOptionElement).value)), [
      'values',
      'handles',
      'prints',
    ]);
    await typeSource(page, 'kernel void mine(global int *p, int n) {}');
    await settled(page);
    assert.deepEqual(await page.$$eval('#kernel option', (els) => els.map((e) => (e as HTMLOptionElement).value)), [
      'mine',
    ]);
  });
});
