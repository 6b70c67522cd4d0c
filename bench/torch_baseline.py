# Baselines for bench/tinytc-kernels.ts on the same GPU: torch.bmm (cuBLAS) on the same batched
# small GEMMs, and the device's copy bandwidth (a device-to-device tensor copy). Prints one JSON line.
import json, os, sys, time
import torch

REPS = 20
dev = torch.device('cuda')

# As bench/tinytc-kernels.ts: WARM_MS of wall-clock time launching the same call (at least 3 calls)
# before the timed ones, so that the GPU's clocks are those of sustained load on both sides.
WARM_MS = float(os.environ.get('WARM_MS', '250'))

def timed(fn):
    until = time.perf_counter() + WARM_MS / 1000
    i = 0
    while i < 3 or time.perf_counter() < until:
        fn()
        torch.cuda.synchronize()
        i += 1
    ts = []
    for _ in range(REPS):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b))
    ts.sort()
    return ts[len(ts) // 2]

out = {}
for dtype, name in ((torch.float32, 'f32'), (torch.float64, 'f64')):
    for n, howmany in ((32, 32768), (64, 16384)):
        A = torch.full((howmany, n, n), 0.5, dtype=dtype, device=dev)
        B = torch.full((howmany, n, n), 0.5, dtype=dtype, device=dev)
        C = torch.empty((howmany, n, n), dtype=dtype, device=dev)
        ms = timed(lambda: torch.bmm(A, B, out=C))
        out[f'bmm_{name}_{n}'] = 2 * n ** 3 * howmany / (ms * 1e6)
        del A, B, C
x = torch.ones(8192 * 32768, dtype=torch.float32, device=dev)
y = torch.empty_like(x)
ms = timed(lambda: y.copy_(x))
out['copy_GBps'] = 2 * x.numel() * 4 / (ms * 1e6)
ms = timed(lambda: y.add_(x, alpha=2.0))
out['torch_axpby_GBps'] = 3 * x.numel() * 4 / (ms * 1e6)
out['tf32'] = torch.backends.cuda.matmul.allow_tf32
print(json.dumps(out))
