#!/usr/bin/env python3
"""Builds the input of the NVIDIA oracle for --target cuda (scripts/gpu-nvidia-ptx.py runs it on the GPU machine).

The device receives only the main checkout and a 2,000-character command, so the sources travel
inside commands: every fixture clang-16 compiles for nvptx64-nvidia-nvcl and the darktable and silx
corpora, each preprocessed by clang-16 as NVPTX sees it (-E -P -cl-no-stdinc, the hosts' -D/-I flags)
with function bodies emptied and module-scope initializers dropped (the .param lists depend on
signatures only), packed in chunks of at most 1,850 base64 characters, each a tar.xz of its own. Writes /tmp/cuda-kit/chunk-NN and
/tmp/cuda-kit/manifest.json (name, file, options). Run from the repository root.
"""
import glob, io, json, os, re, subprocess, sys, tarfile

root = os.getcwd()
out = '/tmp/cuda-kit'
os.makedirs(out, exist_ok=True)
for f in glob.glob(out + '/chunk-*'):
    os.remove(f)

def strip(text):
    """Empties function bodies and drops top-level declarations with initializers."""
    res, seg, depth, i = [], '', 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '{' and depth == 0:
            bare = re.sub(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)', '', seg)
            if '=' in bare.split('(')[0] or bare.rstrip().endswith('='):
                # an initializer: skip it and the declaration
                d, j = 0, i
                while j < len(text):
                    d += text[j] == '{'
                    d -= text[j] == '}'
                    j += 1
                    if d == 0:
                        break
                k = text.find(';', j)
                i, seg = k + 1, ''
                continue
            if '(' in bare:
                d, j = 0, i
                while j < len(text):
                    d += text[j] == '{'
                    d -= text[j] == '}'
                    j += 1
                    if d == 0:
                        break
                # Only kernels matter: other functions go (their bodies are gone anyway).
                if re.search(r'\b(__kernel|kernel)\b', bare):
                    res.append(seg + '{}\n')
                i, seg = j, ''
                continue
            depth += 1
            seg += ch
        elif ch == '{':
            depth += 1
            seg += ch
        elif ch == '}':
            depth -= 1
            seg += ch
        elif ch == ';' and depth == 0:
            seg += ch
            bare = re.sub(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)', '', seg)
            if not ('=' in bare and not bare.lstrip().startswith(('typedef', 'enum'))):
                res.append(seg + '\n')
            seg = ''
        else:
            seg += ch
        i += 1
    return ''.join(res)

items = []
def add(name, path, std, flags):
    args = ['clang-16', '-E', '-P', '-cl-no-stdinc', f'-cl-std={std}', '-target', 'nvptx64-nvidia-nvcl', *flags, path]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return
    src = strip(r.stdout)
    items.append((name, src, f'-cl-std={std}' + (' -cl-fast-relaxed-math' if '-cl-fast-relaxed-math' in flags else '')))

for d in sorted(glob.glob('test/fixtures/*/')):
    if not os.path.exists(d + 'input.cl') or not os.path.exists(d + 'opencl.json'):
        continue
    o = json.load(open(d + 'options.json')) if os.path.exists(d + 'options.json') else {}
    if o.get('oracleSkip'):
        continue
    flags = [f'-I{d}{x}' for x in o.get('includeDirs', [])] + [f'-D{n}' + ('' if v is None else f'={v}') for n, v in o.get('defines', [])]
    add('fixture:' + os.path.basename(d.rstrip('/')), d + 'input.cl', o.get('std', 'CL1.2'), flags)
dt = '.corpus/root/usr/share/darktable/kernels'
for f in sorted(glob.glob(dt + '/*.cl')):
    add('darktable:' + os.path.basename(f), f, 'CL1.2', ['-w', '-cl-fast-relaxed-math', '-DAMD=1', f'-I{dt}'])
sx = '.corpus/root/usr/lib/python3/dist-packages/silx/resources/opencl'
for f in sorted(glob.glob(sx + '/**/*.cl', recursive=True)):
    add('silx:' + os.path.relpath(f, sx), f, 'CL1.2', ['-I', sx])

import base64

def pack(group, g):
    """One chunk: a tar.xz of its sources and its manifest, base64, decodable on its own (xz's CRC catches a bad copy)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:xz', preset=9 | 0x80000000) as tar:
        for name, src, opts, fname in group:
            data = src.encode()
            info = tarfile.TarInfo(fname)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        m = json.dumps([[f, o] for _, _, o, f in group]).encode()
        info = tarfile.TarInfo(f'm{g:02d}.json')
        info.size = len(m)
        tar.addfile(info, io.BytesIO(m))
    return base64.b64encode(buf.getvalue()).decode()

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 1850
manifest, groups, cur = [], [], []
for n, (name, src, opts) in enumerate(items):
    entry = (name, src, opts, f's{n}.cl')
    if cur and len(pack(cur + [entry], len(groups))) > limit:
        groups.append(cur)
        cur = []
    if len(pack([entry], len(groups))) > limit:
        print('too big for one chunk, left out:', name)
        continue
    cur.append(entry)
    manifest.append([name, f's{n}.cl', opts])
if cur:
    groups.append(cur)
for g, group in enumerate(groups):
    open(f'{out}/chunk-{g:02d}', 'w').write(pack(group, g))
json.dump(manifest, open(out + '/manifest.json', 'w'), indent=1)
print(len(manifest), 'sources in', len(groups), 'chunks')
