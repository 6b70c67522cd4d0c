/// <reference lib="dom" />
// Serves web/dist over HTTP and drives Debian's chromium through playwright-core (no browser
// download): the page's tests load exactly what `npm run build:web` produced.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { TestContext } from 'node:test';
import { type Browser, type Page, chromium } from 'playwright-core';

export const DIST = join(import.meta.dirname, '..', '..', 'web', 'dist');
export const ARTIFACTS = join(import.meta.dirname, '..', '.tmp', 'web');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

/** The built page, or a failure telling how to build it. */
export function requireBuild(): void {
  if (!existsSync(join(DIST, 'index.html')))
    throw new Error('web/dist is missing: run `npm run build:web` (npm test does)');
}

export async function serveDist(): Promise<{ server: Server; url: string }> {
  requireBuild();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    let file = join(DIST, path);
    if (!file.startsWith(DIST) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** Chromium, or a skip outside CI when it is not installed (CI=true fails instead). */
export async function launch(t: TestContext): Promise<Browser | null> {
  if (!existsSync(CHROMIUM)) {
    const msg = `${CHROMIUM} not found (Debian package chromium)`;
    if (process.env.CI === 'true') throw new Error(`${msg} (CI=true: install it; .ci/run does)`);
    t.skip(msg);
    return null;
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** Replaces an editor's text (the source, or `#old-editor`) by typing it, as a person would. */
export async function typeSource(page: Page, text: string, editor = '#editor'): Promise<void> {
  const want = text.replace(/\s+/g, ' ').trim();
  let last = '';
  // The first input into a freshly opened page was lost once in CI (the editor read back empty):
  // the text is entered, read back, and entered again if the editor does not hold it.
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.click(`${editor} .cm-content`);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // One input of the whole text, as a paste is: per-key typing dropped a keystroke now and then on a
    // loaded machine (the keyboard test covers typing itself).
    await page.keyboard.insertText(text);
    const held = await page
      .waitForFunction(
        ([sel, w]) =>
          Array.from(document.querySelectorAll(`${sel} .cm-content .cm-line`), (l) => l.textContent ?? '')
            .join('\n')
            .replace(/\s+/g, ' ')
            .trim() === w,
        [editor, want] as const,
        { timeout: 5000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (held) return;
    last = await editorText(page, editor);
  }
  throw new Error(
    `the editor ${editor} did not take the text after 3 tries; it holds: ${JSON.stringify(last.slice(0, 200))}`,
  );
}

/** The editor's text as CodeMirror shows it (one .cm-line per line). */
export function editorText(page: Page, editor = '#editor'): Promise<string> {
  return page.$$eval(`${editor} .cm-content .cm-line`, (lines) => lines.map((l) => l.textContent ?? '').join('\n'));
}

/** Waits until the page has lowered the current text and options. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.waitForTimeout(200);
  // A typed change is lowered after a short pause; `data-pending` is set until then.
  await page.waitForFunction(() => document.body.dataset.pending === undefined);
}

/**
 * One browser and one server for a test file, and `open(t, path)` giving a fresh page on them that
 * fails its test if the page threw. Call in a describe's scope (it registers before/after hooks).
 */
export function pageOpener(hooks: {
  before: (fn: () => Promise<void>) => void;
  after: (fn: () => Promise<void>) => void;
}) {
  let browser: Browser | null = null;
  let server: Server | undefined;
  let base = '';
  hooks.before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ server, url: base } = await serveDist());
  });
  hooks.after(async () => {
    await browser?.close();
    server?.close();
  });
  return {
    url: () => base,
    async open(t: TestContext, path = '', options: Parameters<Browser['newPage']>[0] = {}): Promise<Page | null> {
      browser ??= await launch(t);
      if (!browser) return null;
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, ...options });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      t.after(async () => {
        await page.close();
        if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
      });
      await page.goto(base + path);
      await settled(page);
      return page;
    },
  };
}
