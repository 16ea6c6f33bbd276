#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where the wall time of one call goes on the GPU, from a perf/trace_gaps.cpp timeline.

    perf/trace_gaps.py run.tsv [LABEL]

The window runs from the allocation labelled LABEL (default ktext::bwt::sa, the suffix array that
ktext::bwt allocates first and frees last) to its free. Printed: the window, the kernels' summed
time, the time the GPU ran nothing, and that idle time by what the host was doing in it (waiting
throughout, so the gap is the device's own between queued kernels; an allocation or free; a
wait or copy back that ended in it; launches), the allocations in the window, and the
longest idle stretches with the host's calls in them.
"""
import collections
import sys

NOISE = ('cudaSetDevice', 'cudaGetLastError', 'cudaGetDevice', 'cudaPeekAtLastError')
WAITS = {'cudaStreamSynchronize', 'cudaDeviceSynchronize', 'cudaMemcpyAsync', 'cudaMemcpy'}


def load(path):
    rows = []
    for text in open(path):
        f = text.rstrip('\n').split('\t')
        if len(f) >= 5:
            rows.append((f[0], int(f[1]), int(f[2]), f[3], f[4]))
    return rows


def call(name):
    return name.split('_v')[0]


def main():
    rows = load(sys.argv[1])
    label = sys.argv[2] if len(sys.argv) > 2 else 'ktext::bwt::sa'
    opened = [r for r in rows if r[0] == 'A' and r[3] == label]
    freed = [r for r in rows if r[0] == 'X' and r[3] == label]
    if not opened or not freed:
        sys.exit(f'no allocation and free labelled {label}')
    w0, w1 = opened[-1][1], freed[-1][1]
    device = sorted((r for r in rows if r[0] in 'KCS' and r[2] > w0 and r[1] < w1), key=lambda r: r[1])
    gaps, end = [], w0
    for r in device:
        if r[1] > end:
            gaps.append((end, r[1]))
        end = max(end, r[2])
    if w1 > end:
        gaps.append((end, w1))
    host = [r for r in rows if r[0] == 'R' and r[2] > w0 and r[1] < w1 and not r[3].startswith(NOISE)]
    kernels = sum(r[2] - r[1] for r in device if r[0] == 'K')
    idle = sum(b - a for a, b in gaps)
    print(f'window {(w1 - w0) / 1e6:.3f} ms ({label}), kernels {kernels / 1e6:.3f} ms, '
          f'idle {idle / 1e6:.3f} ms in {len(gaps)} stretches')
    by = collections.defaultdict(lambda: [0.0, 0])
    for a, b in gaps:
        inside = {call(r[3]) for r in host if r[2] > a and r[1] < b}
        waiting = any(r[1] <= a and r[2] >= b and call(r[3]) in WAITS for r in host)
        if waiting:
            what = 'queued work'  # the host waited throughout: the device's own gap between kernels
        elif inside & {'cudaMalloc', 'cudaFree'}:
            what = 'allocation or free'
        elif inside & WAITS:
            what = 'wait or copy'
        elif inside & {'cudaLaunchKernel', 'cudaMemsetAsync'}:
            what = 'launch'
        else:
            what = 'other'
        by[what][0] += (b - a) / 1e6
        by[what][1] += 1
    for what, (ms, count) in sorted(by.items(), key=lambda kv: -kv[1][0]):
        print(f'  idle during {what:20s} {ms:7.3f} ms in {count} stretches')
    print('allocations and frees in the window (ms from its start):')
    for r in rows:
        if r[0] in 'AX' and w0 <= r[1] <= w1 and r[4].split(' ')[-1] != '0':
            print(f'  {"alloc" if r[0] == "A" else "free "} {(r[1] - w0) / 1e6:7.3f} {r[3]} {r[4]}')
    print('longest idle stretches (us, at ms), with the host calls in them (us):')
    for a, b in sorted(gaps, key=lambda g: g[0] - g[1])[:int(sys.argv[3]) if len(sys.argv) > 3 else 15]:
        inside = [f'{call(r[3])}({(r[2] - r[1]) / 1e3:.0f})' for r in host if r[2] > a and r[1] < b][:8]
        print(f'  {(b - a) / 1e3:8.1f} at {(a - w0) / 1e6:7.3f}: {" ".join(inside)}')


if __name__ == '__main__':
    main()
