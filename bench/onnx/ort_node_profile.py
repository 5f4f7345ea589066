#!/usr/bin/env python3
"""ONNX Runtime's own per-node times for a model, to set beside tcc's steps.

Runs MODEL.onnx under ORT's profiler (SessionOptions.enable_profiling) on
the input_0.npy next to it (export_models.py's layout), with the thread
count and the spinning setting onnx_vs_ort.py uses, and prints each node's
minimum kernel time over the runs, the slowest first, with its op type and
input shapes, and the sums by op type. Compare with `tcc bench --profile`
or bench/step_minima.py on the same model:

    build/python-env/bin/python3 bench/onnx/ort_node_profile.py \\
        /tmp/bm/mobilenet_v2/model.onnx --runs 40
"""
import argparse
import collections
import json
import os
import sys
import tempfile

import numpy as np
import onnxruntime as ort


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split('\n', 2)[2])
    parser.add_argument('model', help='MODEL.onnx, with input_0.npy beside it')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--runs', type=int, default=40)
    parser.add_argument('--top', type=int, default=30,
                        help='nodes to list (default 30)')
    args = parser.parse_args()
    folder = os.path.dirname(os.path.abspath(args.model))
    inputs_path = os.path.join(folder, 'input_0.npy')
    if not os.path.exists(inputs_path):
        sys.exit(f'ort_node_profile.py: {inputs_path} not found')
    with tempfile.TemporaryDirectory() as tmp:
        so = ort.SessionOptions()
        so.intra_op_num_threads = args.threads
        so.inter_op_num_threads = 1
        so.add_session_config_entry('session.intra_op.allow_spinning', '0')
        so.enable_profiling = True
        so.profile_file_prefix = os.path.join(tmp, 'ort')
        session = ort.InferenceSession(args.model, so,
                                       providers=['CPUExecutionProvider'])
        feed = {session.get_inputs()[0].name: np.load(inputs_path)}
        for _ in range(args.runs):
            session.run(None, feed)
        with open(session.end_profiling()) as f:
            events = json.load(f)
    best, info = {}, {}
    for e in events:
        if e.get('cat') != 'Node' or not e['name'].endswith('_kernel_time'):
            continue
        node = e['name'][:-len('_kernel_time')]
        best[node] = min(best.get(node, float('inf')), e['dur'])
        info[node] = (e['args'].get('op_name'),
                      e['args'].get('input_type_shape'))
    by_op = collections.Counter()
    for node, us in best.items():
        by_op[info[node][0]] += us
    print(f'sum of node minima: {sum(best.values()):.0f} us; by op: ' +
          ', '.join(f'{op} {us:.0f}' for op, us in by_op.most_common()))
    for node in sorted(best, key=lambda n: -best[n])[:args.top]:
        op, shapes = info[node]
        print(f'{best[node]:8.0f} us  {op:12s} {shapes}  {node}')


if __name__ == '__main__':
    main()
