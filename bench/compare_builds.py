#!/usr/bin/env python3
"""Times the same models compiled and run by two builds of tcc.

`tcc bench --compare` alternates two artifacts in one process, which needs
one runtime that reads both. Across a change of the artifact format the two
builds cannot share a process, so this alternates whole `tcc bench`
processes instead (base then new, new then base, ...) and reports the ratio
of the medians of their p50 latencies.

    build/bin/tcc-model-bench --reps 1 --threads 1 --save-ir /tmp/ir
    bench/compare_builds.py BASE/bin/tcc build/bin/tcc /tmp/ir --rounds 7
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

# Iterations per process: enough for a stable p50, a second or two each.
ITERATIONS = {'digits-cnn': 2000, 'encoder-layer': 100, 'mlp-batch1': 60,
              'mlp-batch64': 20, 'resnet18': 20}


def p50(tcc, model, threads, iterations):
    out = subprocess.run([tcc, 'bench', model, '--threads', str(threads),
                          '--iterations', str(iterations), '--warmup', '5',
                          '--json'], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)['latency_ms']['p50']


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('base_tcc')
    parser.add_argument('new_tcc')
    parser.add_argument('ir_dir', help='tcc-model-bench --save-ir output')
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--threads', default='1,2')
    args = parser.parse_args()
    models = sorted(f[:-5] for f in os.listdir(args.ir_dir)
                    if f.endswith('.mlir'))
    if not models:
        sys.exit(f'{args.ir_dir}: no .mlir files')
    with tempfile.TemporaryDirectory() as tmp:
        print('| model | threads | base p50 ms | new p50 ms | new / base |')
        print('|---|---|---|---|---|')
        for m in models:
            ir = os.path.join(args.ir_dir, m + '.mlir')
            bins = {}
            for which, tcc in (('base', args.base_tcc), ('new', args.new_tcc)):
                bins[which] = os.path.join(tmp, f'{which}-{m}.bin')
                subprocess.run([tcc, 'compile', ir, '-o', bins[which]],
                               check=True)
            n = ITERATIONS.get(m, 50)
            for threads in (int(t) for t in args.threads.split(',')):
                times = {'base': [], 'new': []}
                for r in range(args.rounds):
                    order = ('base', 'new') if r % 2 == 0 else ('new', 'base')
                    for which in order:
                        tcc = args.base_tcc if which == 'base' else args.new_tcc
                        times[which].append(p50(tcc, bins[which], threads, n))
                base = statistics.median(times['base'])
                new = statistics.median(times['new'])
                print(f'| {m} | {threads} | {base:.4f} | {new:.4f} | '
                      f'{new / base:.3f} |', flush=True)


if __name__ == '__main__':
    main()
