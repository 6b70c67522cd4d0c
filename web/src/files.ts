// The page's files: one tab per file (the main one first), adding a file by name, opening files or a
// folder from disk (picker or drag and drop), choosing which file is compiled, and removing headers.
import { FILE_PATH, type HeaderFile, isKernelSource, relativeToFolder } from './paths.js';

/** What the bar asks of the page. */
export interface FileActions {
  /** Show a file in the editor. */
  show(path: string): void;
  /** Make a `.cl`/`.ir` file the one compiled. */
  setMain(path: string): void;
  add(path: string): void;
  remove(path: string): void;
  /** Files read from disk (`paths` relative to the folder opened). */
  opened(files: readonly HeaderFile[]): void;
  /** A compiled kernel opened or dropped: its plan is drawn instead of the source's. */
  binary(path: string, bytes: Uint8Array): void;
}

export interface FileBar {
  /** `errors`: error count per file, shown on its tab. */
  render(main: string, headers: readonly HeaderFile[], shown: string, errors: ReadonlyMap<string, number>): void;
  /** Why the last add or open was refused, or ''. */
  say(text: string): void;
}

/** Text files only: a folder of sources often holds images and build outputs too. */
const TEXT = /\.(cl|ir|h|hpp|inc|clh|cl\.h|def|conf)$/i;
/** Compiled kernels kernarg reads (the reader tells the kind from the bytes): code objects, PTX, SPIR-V, zebins. */
const BINARY = /\.(hsaco|co|o|elf|ptx|spv|bin|zebin)$/i;
/** A folder opened by mistake (a home directory) must not freeze the page. */
const MAX_FILES = 200;
const MAX_BYTES = 4 << 20;

function button(text: string, props: Record<string, string> = {}): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  for (const [k, v] of Object.entries(props)) b.setAttribute(k, v);
  return b;
}

/** Reads picked or dropped files: text files with usable paths, capped in count and size. */
async function readAll(
  entries: readonly { path: string; file: File }[],
): Promise<{ files: HeaderFile[]; skipped: number }> {
  const paths = relativeToFolder(entries.map((e) => e.path));
  const files: HeaderFile[] = [];
  let skipped = 0;
  let bytes = 0;
  for (const [i, e] of entries.entries()) {
    const path = paths[i];
    if (!TEXT.test(path) || !FILE_PATH.test(path) || files.length >= MAX_FILES || bytes + e.file.size > MAX_BYTES) {
      skipped++;
      continue;
    }
    bytes += e.file.size;
    files.push({ path, text: await e.file.text() });
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files, skipped };
}

/** Every file under a dropped entry (a folder is walked), with its path from the drop. */
async function walk(entry: FileSystemEntry, out: { path: string; file: File }[]): Promise<void> {
  if (out.length > MAX_FILES * 4) return;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path: entry.fullPath, file });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until it answers none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const e of batch) await walk(e, out);
  }
}

export function createFileBar(
  tabs: HTMLElement,
  dropZone: HTMLElement,
  status: HTMLElement,
  actions: FileActions,
): FileBar {
  const mainSelect = document.getElementById('main-file') as HTMLSelectElement;
  const newName = document.getElementById('new-file') as HTMLInputElement;
  const picker = document.getElementById('file-input') as HTMLInputElement;
  const folderPicker = document.getElementById('folder-input') as HTMLInputElement;
  const say = (text: string) => {
    status.textContent = text;
  };
  /** The first compiled kernel among the files, read as bytes, goes to `binary`; the rest as sources. */
  const take = async (list: readonly { path: string; file: File }[]) => {
    const bin = list.find((e) => BINARY.test(e.path) && e.file.size <= MAX_BYTES);
    if (bin) {
      say('');
      actions.binary(bin.path.replace(/^.*\//, ''), new Uint8Array(await bin.file.arrayBuffer()));
      return;
    }
    report(await readAll(list));
  };
  const report = ({ files, skipped }: { files: HeaderFile[]; skipped: number }) => {
    say(
      skipped > 0
        ? `${skipped} file${skipped === 1 ? '' : 's'} left out (not a source or header, an unusable name, or ` +
            `over ${MAX_FILES} files / ${MAX_BYTES >> 20} MiB)`
        : '',
    );
    if (files.length > 0) actions.opened(files);
  };

  const add = () => {
    const path = newName.value.trim();
    if (!FILE_PATH.test(path)) {
      say(`'${path}' is not a usable file name: letters, digits, '.', '-', '_', '+', folders with '/', no '..'`);
      return;
    }
    newName.value = '';
    say('');
    actions.add(path);
  };
  document.getElementById('add-file')!.addEventListener('click', add);
  newName.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') add();
  });
  mainSelect.addEventListener('change', () => actions.setMain(mainSelect.value));
  document.getElementById('open-files')!.addEventListener('click', () => picker.click());
  document.getElementById('open-folder')!.addEventListener('click', () => folderPicker.click());
  for (const input of [picker, folderPicker]) {
    input.addEventListener('change', () => {
      const list = [...(input.files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
      input.value = '';
      take(list).catch((e: unknown) => say(`could not read the files: ${String(e)}`));
    });
  }
  dropZone.addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    dropZone.classList.add('dropping');
  });
  dropZone.addEventListener('dragleave', (e) => {
    if (!dropZone.contains(e.relatedTarget as Node | null)) dropZone.classList.remove('dropping');
  });
  dropZone.addEventListener('drop', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    dropZone.classList.remove('dropping');
    const items = [...e.dataTransfer.items]
      .map((i) => i.webkitGetAsEntry())
      .filter((x): x is FileSystemEntry => x !== null);
    const list: { path: string; file: File }[] = [];
    (async () => {
      if (items.length > 0) for (const entry of items) await walk(entry, list);
      else list.push(...[...e.dataTransfer!.files].map((file) => ({ path: file.name, file })));
      await take(list);
    })().catch((err: unknown) => say(`could not read the dropped files: ${String(err)}`));
  });

  return {
    say,
    render(main, headers, shown, errors) {
      const all = [main, ...headers.map((h) => h.path)];
      tabs.replaceChildren();
      for (const path of all) {
        const n = errors.get(path) ?? 0;
        const tab = button(path, {
          'data-file': path,
          class: 'file-tab',
          'aria-current': String(path === shown),
          title: path === main ? `${path}: the file compiled` : path,
        });
        if (path === main)
          tab.append(Object.assign(document.createElement('span'), { className: 'badge main', textContent: 'main' }));
        if (n > 0)
          tab.append(
            Object.assign(document.createElement('span'), {
              className: 'badge errors',
              textContent: String(n),
              title: `${n} error${n === 1 ? '' : 's'}`,
            }),
          );
        tab.addEventListener('click', () => actions.show(path));
        const wrap = document.createElement('span');
        wrap.className = 'file';
        wrap.append(tab);
        if (path !== main) {
          const remove = button('×', {
            class: 'remove',
            'data-remove': path,
            'aria-label': `Remove ${path}`,
            title: `Remove ${path}`,
          });
          remove.addEventListener('click', () => actions.remove(path));
          wrap.append(remove);
        }
        tabs.append(wrap);
      }
      const kernels = all.filter(isKernelSource);
      mainSelect.replaceChildren(...kernels.map((p) => new Option(p, p)));
      mainSelect.value = main;
      mainSelect.disabled = kernels.length < 2;
      // Only a choice when there is one to make.
      mainSelect.closest('label')!.hidden = kernels.length < 2;
    },
  };
}
