#!/usr/bin/env python3
"""Per-step minimum times of artifacts run by (possibly different) tcc builds.

Runs `tcc bench --trace` on each TCC:ARTIFACT in turn (the order reversed
every round), takes every plan step's minimum over all traced runs of all
rounds, and prints the sums by kind of step (pointwise, depthwise and other
convolutions, the rest); with --steps, the slowest steps side by side. On a
loaded machine a step's minimum over many runs moves far less than the
model's median latency, so this compares two builds step by step:

    bench/step_minima.py --rounds 6 --iterations 20 \\
        BASE/bin/tcc:/tmp/m/base.bin build/bin/tcc:/tmp/m/new.bin
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

CONV = re.compile(r'conv2d \w+ \d+x(\d+)x\d+x\d+ -> \d+ channels, kernel (\d+)x(\d+),'
                  r' stride \d+x\d+, pad \d+x\d+, groups (\d+)')


def kind(what):
    m = CONV.match(what)
    if not m:
        return 'other'
    kh, kw, groups = int(m.group(2)), int(m.group(3)), int(m.group(4))
    if groups > 1:
        return 'grouped conv'
    return 'pointwise conv' if kh == kw == 1 else 'other conv'


def traced_steps(tcc, artifact, threads, iterations, trace):
    subprocess.run([tcc, 'bench', artifact, '--trace', trace, '--threads',
                    str(threads), '--iterations', str(iterations),
                    '--warmup', '3'], check=True, capture_output=True)
    with open(trace) as f:
        data = json.load(f)
    events = data['traceEvents'] if isinstance(data, dict) else data
    for e in events:
        if e.get('cat') == 'step':
            yield e['args'], e['dur'] / 1000.0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split('\n', 2)[2])
    parser.add_argument('runs', nargs='+', metavar='TCC:ARTIFACT',
                        help='a tcc binary and the artifact it runs')
    parser.add_argument('--rounds', type=int, default=4)
    parser.add_argument('--iterations', type=int, default=20,
                        help='traced runs per tcc bench (default 20)')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--steps', type=int, default=0,
                        help='also list the N slowest steps')
    args = parser.parse_args()
    pairs = []
    for r in args.runs:
        tcc, sep, artifact = r.partition(':')
        if not sep or not os.path.exists(tcc) or not os.path.exists(artifact):
            sys.exit(f'step_minima.py: {r}: want TCC:ARTIFACT, both existing')
        pairs.append((tcc, artifact))
    best = [{} for _ in pairs]
    what = {}
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, 'trace.json')
        for r in range(args.rounds):
            order = range(len(pairs)) if r % 2 == 0 else reversed(range(len(pairs)))
            for i in order:
                for a, ms in traced_steps(*pairs[i], args.threads,
                                          args.iterations, trace):
                    what[a['step']] = a['what']
                    best[i][a['step']] = min(best[i].get(a['step'], 1e30), ms)
    kinds = sorted({kind(w) for w in what.values()})
    print('| artifact | all ms | ' + ' | '.join(kinds) + ' |')
    print('|---' * (len(kinds) + 2) + '|')
    for (tcc, artifact), b in zip(pairs, best):
        sums = collections.Counter()
        for step, ms in b.items():
            sums[kind(what[step])] += ms
        print(f'| {tcc} {artifact} | {sum(b.values()):.3f} | ' +
              ' | '.join(f'{sums[k]:.3f}' for k in kinds) + ' |')
    for step in sorted(what, key=lambda s: -best[0].get(s, 0))[:args.steps]:
        print(f'{step:5d} ' + ' '.join(f'{b.get(step, 0) * 1000:9.1f}'
                                       for b in best) + ' us  ' + what[step])


if __name__ == '__main__':
    main()
