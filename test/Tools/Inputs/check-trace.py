"""Checks a trace that `tcc bench --trace` wrote.

usage: check-trace.py TRACE.json STEPS RUNS

The file must be Trace Event Format JSON whose "X" (complete) events are
one per plan step per run, each with the fields a reader needs, and whose
timestamps never go back on one thread. Prints a summary for FileCheck;
exits 1 naming the first thing wrong.
"""
import json
import sys


def fail(message):
    print("check-trace: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    path, steps, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(path) as f:
        trace = json.load(f)
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    if len(events) != steps * runs:
        fail("%d events, expected %d steps x %d runs" % (len(events), steps, runs))
    seen = set()
    last_ts = {}
    for e in events:
        for key in ("name", "ts", "dur", "pid", "tid", "args"):
            if key not in e:
                fail("an event has no %r: %s" % (key, e))
        args = e["args"]
        for key in ("step", "run", "kind", "what", "source_ops"):
            if key not in args:
                fail("an event's args have no %r: %s" % (key, e))
        if e["dur"] < 0:
            fail("negative duration: %s" % e)
        seen.add((args["run"], args["step"]))
        if e["ts"] < last_ts.get(e["tid"], 0):
            fail("ts goes back on thread %s: %s" % (e["tid"], e))
        last_ts[e["tid"]] = e["ts"] + e["dur"]
    if seen != {(r, s) for r in range(runs) for s in range(steps)}:
        fail("not one event per step per run: %s" % sorted(seen))
    print("events %d on %d thread(s)" % (len(events), len(last_ts)))
    for step in range(steps):
        a = next(e["args"] for e in events if e["args"]["step"] == step)
        known = " ".join("%s=%d" % (k, a[k]) for k in ("flops", "bytes") if k in a)
        print("step %d: %s [%s] %s" % (step, a["kind"], ", ".join(a["source_ops"]), known))


main()
