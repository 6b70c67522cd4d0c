/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The explorer with several files, in Chromium: headers added in the page and a real darktable kernel
// with its headers lower as lower() lowers them with the same files; the share link keeps the files;
// a problem in the list opens its file's tab and moves the editor to its line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type LowerOptions, lower, memoryHost } from '../../src/index.js';
import { ARTIFACTS, editorText, pageOpener, settled, typeSource } from './browser.js';

const DARKTABLE = join(import.meta.dirname, '..', 'real', 'darktable');
const dt = (name: string) => readFileSync(join(DARKTABLE, name), 'utf8');

interface Slot {
  name: string;
  offset?: number;
  size?: number | null;
}

/** lower()'s JSON plan of a main file with files beside it, as the page's file list gives them (`-I .` too). */
function planOf(
  path: string,
  text: string,
  files: Record<string, string>,
  options: LowerOptions,
): { kernels: { name: string; args: Slot[] }[] } {
  const r = lower(path, text, memoryHost(files), { ...options, format: 'json', includeDirs: ['.'] });
  assert.ok(r.output, `lower failed: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return JSON.parse(r.output) as { kernels: { name: string; args: Slot[] }[] };
}

/** The byte-lane slots drawn for a target: name, offset and size. */
function drawn(page: Page, target: string): Promise<[string, number, number][]> {
  return page.$$eval(`svg.drawing[data-target="${target}"] .slot[data-slot]`, (els) =>
    els.map((e) => {
      const d = (e as SVGElement).dataset;
      return [d.name ?? '', Number(d.offset), Number(d.size)] as [string, number, number];
    }),
  );
}

const tabs = (page: Page) => page.$$eval('#files .file-tab', (els) => els.map((e) => (e as HTMLElement).dataset.file));
const shownTab = (page: Page) =>
  page.$eval('#files .file-tab[aria-current="true"]', (e) => (e as HTMLElement).dataset.file);

async function openTab(page: Page, path: string): Promise<void> {
  // The page marks the tab after the click's handler has run: under load that was after an immediate read (a CI-load
  // flake: 'sub/types.h' still current). Wait for the mark, then read it. A click can also land on a tab the page is
  // drawing again (the list is redrawn after each lowering), and be lost: at load 6 the mark had not come in 10 s, so
  // a click whose mark does not come is made again, twice at most.
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.click(`#files .file-tab[data-file="${path}"]`);
    const marked = await page
      .waitForSelector(`#files .file-tab[data-file="${path}"][aria-current="true"]`, { timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    if (marked) break;
  }
  assert.equal(await shownTab(page), path);
}

const HEADER = 'typedef struct { char tag; float3 pos; } S;\ntypedef float4 T;\n';
const MAIN = '#include "sub/types.h"\nkernel void k(global T* out, S s, int n) {}\n';

describe('web page with several files', () => {
  const { open, url } = pageOpener({ before, after });

  test('a header added in the page is what #include finds: the drawings equal lower() with the same files', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.fill('#new-file', 'sub/types.h');
    await page.click('#add-file');
    assert.deepEqual(await tabs(page), ['kernel.cl', 'sub/types.h']);
    assert.equal(await shownTab(page), 'sub/types.h', 'a new file opens in the editor');
    await typeSource(page, HEADER);
    await openTab(page, 'kernel.cl');
    await typeSource(page, MAIN);
    await settled(page);
    const files = { 'sub/types.h': HEADER };
    for (const target of ['amdhsa', 'vulkan'] as const) {
      const args = planOf('kernel.cl', MAIN, files, { target }).kernels[0].args.filter(
        (a) => target === 'amdhsa' || a.name === 's',
      );
      const shown = await drawn(page, target);
      for (const a of args) {
        const d = shown.find(([name]) => name === a.name);
        assert.ok(d, `${target}: ${a.name} drawn`);
        if (target === 'amdhsa') assert.deepEqual(d, [a.name, a.offset, a.size], `${target} ${a.name}`);
      }
    }
    assert.equal(await page.$$eval('#messages li', (els) => els.length), 0, 'no problem once the header is there');
    // Removing the header: the include is not found, and the list says where.
    await page.click('#files [data-remove="sub/types.h"]');
    await settled(page);
    const expected = lower('kernel.cl', MAIN, memoryHost({}), { target: 'amdhsa', includeDirs: ['.'] }).diagnostics[0];
    const first = await page.$eval('#messages li', (e) => e.textContent ?? '');
    assert.ok(
      first.startsWith('kernel.cl:1:') && first.includes(expected.message) && first.includes(`[${expected.code}]`),
      first,
    );
  });

  test('the darktable example: bloom.cl with common.h and colorspace.h, its licence shown, lowered as lower() lowers the real files', async (t) => {
    const page = await open(t, '', { viewport: { width: 1280, height: 800 } });
    if (!page) return;
    const group = await page.$eval(
      '#example option[value="darktable-bloom"]',
      (o) => (o.parentElement as HTMLOptGroupElement).label,
    );
    assert.match(group, /darktable 4\.2\.1 \(GPL-3\.0-or-later\)/, 'the licence is named in the example list');
    await page.selectOption('#example', 'darktable-bloom');
    await settled(page);
    assert.deepEqual(await tabs(page), ['bloom.cl', 'common.h', 'colorspace.h']);
    assert.match((await page.textContent('#licence')) ?? '', /GPL-3\.0-or-later/);
    assert.ok(await page.isVisible('#licence'));
    const files = { 'common.h': dt('common.h'), 'colorspace.h': dt('colorspace.h') };
    const plan = planOf('bloom.cl', dt('bloom.cl'), files, { target: 'amdhsa' });
    assert.deepEqual(
      await page.$$eval('#kernel option', (os) => os.map((o) => o.textContent)),
      plan.kernels.map((k) => k.name),
    );
    assert.deepEqual(
      await drawn(page, 'amdhsa'),
      plan.kernels[0].args.map((a) => [a.name, a.offset, a.size]),
    );
    // Each header shows in its tab.
    await openTab(page, 'common.h');
    assert.ok((await editorText(page)).includes('This file is part of darktable'));
    await page.screenshot({ path: join(ARTIFACTS, 'darktable-1280.png') });
  });

  test('the share link keeps every file, and the page lowers them the same after reopening', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.fill('#new-file', 'sub/types.h');
    await page.click('#add-file');
    await typeSource(page, HEADER);
    await openTab(page, 'kernel.cl');
    await typeSource(page, MAIN);
    await settled(page);
    await page.click('#share');
    await page.waitForFunction(() => document.getElementById('share-status')?.textContent !== '');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const before = await drawn(page, 'amdhsa');
    const again = await open(t, link.slice(url().length));
    if (!again) return;
    assert.deepEqual(await tabs(again), ['kernel.cl', 'sub/types.h']);
    assert.equal(await editorText(again), MAIN);
    await openTab(again, 'sub/types.h');
    assert.equal(await editorText(again), HEADER.replace(/\n$/, '\n'));
    assert.deepEqual(await drawn(again, 'amdhsa'), before);
    assert.ok(
      before.some(([name]) => name === 's'),
      'the struct from the header is drawn',
    );
  });

  test('a link to the darktable example names its unchanged files instead of holding them, and holds an edited one', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.selectOption('#example', 'darktable-bloom');
    await settled(page);
    await page.waitForFunction(() => location.hash.length > 3);
    const short = await page.evaluate(() => location.hash);
    assert.ok(short.length < 600, `${short.length} characters for 35 KB of files`);
    const before = await drawn(page, 'amdhsa');
    const again = await open(t, short);
    if (!again) return;
    assert.deepEqual(await tabs(again), ['bloom.cl', 'common.h', 'colorspace.h']);
    assert.equal(await again.inputValue('#example'), 'darktable-bloom', "the files are the example's, byte for byte");
    assert.deepEqual(await drawn(again, 'amdhsa'), before);
    // An edit to common.h: the link now carries that file's text.
    await openTab(again, 'common.h');
    await again.click('#editor .cm-content');
    await again.keyboard.press('Control+Home');
    await again.keyboard.insertText('#define EDITED 1\n');
    await settled(again);
    await again.waitForFunction((s) => location.hash !== s, short);
    const edited = await again.evaluate(() => location.hash);
    assert.ok(edited.length > short.length + 200, 'the edited header travels in the link');
    const third = await open(t, edited);
    if (!third) return;
    await openTab(third, 'common.h');
    assert.ok((await editorText(third)).startsWith('#define EDITED 1\n/*'));
    assert.equal(await third.inputValue('#example'), '', 'no longer the example');
  });

  test('a problem in a header: the list names file:line:col, and a click opens that tab with the line in view', async (t) => {
    const page = await open(t, '', { viewport: { width: 1280, height: 800 } });
    if (!page) return;
    await page.selectOption('#example', 'darktable-bloom');
    await settled(page);
    // A mistake at the end of colorspace.h (its last line, far below the editor's first screen), typed in its tab.
    await openTab(page, 'colorspace.h');
    await page.click('#editor .cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('broken_t oops;');
    await openTab(page, 'bloom.cl');
    await settled(page);
    const header = `${dt('colorspace.h')}broken_t oops;`;
    const [d] = lower('bloom.cl', dt('bloom.cl'), memoryHost({ 'common.h': dt('common.h'), 'colorspace.h': header }), {
      target: 'opencl',
      includeDirs: ['.'],
    }).diagnostics;
    assert.ok(d?.span && d.span.file.path === 'colorspace.h', 'lower() reports it in colorspace.h');
    const { line, col } = d.span.file.lineCol(d.span.start);
    assert.equal(line, header.split('\n').length);
    const button = '#messages button.problem[data-file="colorspace.h"]';
    assert.equal(await page.textContent(button), `colorspace.h:${line}:${col}: error: ${d.message} [${d.code}]`);
    assert.equal(
      await page.textContent('#files .file-tab[data-file="colorspace.h"] .badge.errors'),
      '1',
      'the tab counts its errors',
    );
    // The editor shows bloom.cl from its top: the click must change file and scroll.
    assert.equal(await shownTab(page), 'bloom.cl');
    await page.click(button);
    assert.equal(await shownTab(page), 'colorspace.h', 'the click opens the file of the problem');
    const place = await page.evaluate(() => {
      const scroller = document.querySelector('#editor .cm-scroller')!.getBoundingClientRect();
      const widget = document.querySelector<HTMLElement>('#editor .cm-inline-diag');
      const selected = getSelection()?.toString();
      if (!widget) return null;
      const w = widget.getBoundingClientRect();
      return {
        line: widget.dataset.line,
        inView: w.top >= scroller.top && w.bottom <= scroller.bottom,
        selected,
        focused: document.activeElement?.classList.contains('cm-content'),
      };
    });
    assert.ok(place, 'the problem is shown under its line in the header');
    assert.equal(place.line, String(line));
    assert.ok(place.inView, 'the line and its message are scrolled into the editor');
    assert.equal(place.selected, header.slice(d.span.start, d.span.end), 'the span is selected');
    assert.ok(place.focused, 'the editor has focus');
    await page.screenshot({ path: join(ARTIFACTS, 'problem-click.png') });
  });

  test('opening a real folder (test/real/darktable) and choosing bloom.cl as the main file lowers it as lower() does', async (t) => {
    const page = await open(t);
    if (!page) return;
    await page.setInputFiles('#folder-input', DARKTABLE);
    await page.waitForFunction(() => document.querySelectorAll('#files .file-tab').length > 10);
    await settled(page);
    const names = await tabs(page);
    // Sources and headers, by their path in the folder; the README and the copyright file are left out.
    assert.ok(
      names.includes('common.h') && names.includes('bloom.cl') && !names.includes('README.md'),
      names.join(' '),
    );
    assert.match((await page.textContent('#files-status')) ?? '', /^2 files left out/);
    assert.equal(names[0], 'atrous.cl', 'the first source by name is the main file');
    await page.selectOption('#main-file', 'bloom.cl');
    await settled(page);
    assert.equal((await tabs(page))[0], 'bloom.cl');
    const plan = planOf(
      'bloom.cl',
      dt('bloom.cl'),
      { 'common.h': dt('common.h'), 'colorspace.h': dt('colorspace.h') },
      { target: 'amdhsa' },
    );
    assert.deepEqual(
      await drawn(page, 'amdhsa'),
      plan.kernels[0].args.map((a) => [a.name, a.offset, a.size]),
    );
    assert.equal(await page.$$eval('#messages li', (els) => els.length), 0);
  });

  test('dropping a header on the source column adds it beside the open files', async (t) => {
    const page = await open(t);
    if (!page) return;
    await typeSource(page, MAIN.replace('sub/types.h', 'types.h'));
    await settled(page);
    assert.ok((await page.$$eval('#messages li', (els) => els.length)) > 0, 'the include is missing at first');
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'types.h', { type: 'text/plain' }));
      const zone = document.getElementById('drop')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, HEADER);
    await page.waitForFunction(() => document.querySelectorAll('#files .file-tab').length === 2);
    await settled(page);
    assert.deepEqual(await tabs(page), ['kernel.cl', 'types.h']);
    assert.equal(await page.$$eval('#messages li', (els) => els.length), 0);
    const plan = planOf(
      'kernel.cl',
      MAIN.replace('sub/types.h', 'types.h'),
      { 'types.h': HEADER },
      { target: 'amdhsa' },
    );
    assert.deepEqual(
      await drawn(page, 'amdhsa'),
      plan.kernels[0].args.map((a) => [a.name, a.offset, a.size]),
    );
  });
});
