#!/usr/bin/env python3
"""Turns tcc-onnx-conformance results into docs/onnx-conformance.md.

usage: report.py RESULTS.jsonl... -o OUT.md [--write-expected FILE]

RESULTS are the --results files of the shards (ctest writes them to
build/test/onnx/results-<i>.jsonl). Every op of ONNX's node cases is listed
as passed, failed or out of scope with its case counts: a case's op is the
op of its single node, and an `_expanded` case (the op's function body)
counts for the op of the case it expands (a model converted from an old
opset counts for the op it was converted to). --write-expected writes the
passing cases, the list the ctest shards hold the suite to.
"""
import argparse
import collections
import datetime
import json
import re
import sys

COMMAND = """\
scripts/python-env.sh build
ctest --test-dir build -R OnnxConformance
python3 test/onnx/report.py build/test/onnx/results-*.jsonl -o docs/onnx-conformance.md"""


def read_results(paths):
    results = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    results[r["name"]] = r
    return results


def op_of(case, results):
    """The op a node case tests: its node's, or that of the case it expands."""
    base = re.sub(r"_expanded(_ver\d+)?$", "", case["name"])
    if base != case["name"] and base in results and results[base]["ops"]:
        return results[base]["ops"][0]
    # A converted model may gain Constant nodes (Upsample became Resize).
    ops = [op for op in case["ops"] if op != "Constant"] or case["ops"]
    return ops[0] if len(ops) == 1 else "(several ops)"


def verdict(counts):
    if counts["failed"]:
        return "failed"
    return "passed" if counts["passed"] else "out of scope"


def cell(text, limit=110):
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return text.replace("|", "\\|")


def failure(r):
    """"`case` compile: why", "`case` mismatch in interpreter: why"."""
    where = r["stage"] if r["status"].endswith("-failed") else f"{r['status']} in {r['stage']}"
    # The row names the op: drop the importer's preamble naming the node.
    why = re.sub(r"^the model has 1 node\(s\) tcc cannot import: ", "", r["error"])
    why = re.sub(r"^node #\d+ \(\w+\): ", "", why)
    why = re.sub(r" in node #\d+ \(\w+\)", "", why)
    return f"`{r['name']}` {where}" + (f": {why}" if why else "")


def percent(part, whole):
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def summary(results):
    rows = []
    in_scope = [r for r in results if r["status"] != "out-of-scope"]
    floats = [r for r in in_scope if r["float"]]
    passed = lambda rs: sum(r["status"] == "passed" for r in rs)
    rows.append(f"- In-scope cases passing: **{percent(passed(in_scope), len(in_scope))}** (target: at least 95%)")
    rows.append(f"- In-scope cases of a float dtype passing: **{percent(passed(floats), len(floats))}** (target: all)")
    rows.append(f"- Out of scope: {len(results) - len(in_scope)} of {len(results)} cases")
    converted = [r for r in results if r.get("converted_from_opset")]
    rows.append(f"- Run after conversion from an opset below 11 (onnx.version_converter): "
                f"{len(converted)} cases, {passed(converted)} passing")
    by_kind = collections.defaultdict(list)
    for r in results:
        by_kind[r["kind"]].append(r)
    table = ["| kind | cases | in scope | passed | failed |", "|---|---:|---:|---:|---:|"]
    for kind, rs in by_kind.items():
        scoped = [r for r in rs if r["status"] != "out-of-scope"]
        table.append(f"| {kind} | {len(rs)} | {len(scoped)} | {passed(scoped)} | {len(scoped) - passed(scoped)} |")
    statuses = collections.Counter(r["status"] for r in results)
    status_line = ", ".join(f"{s} {n}" for s, n in statuses.most_common())
    return rows + ["", *table, "", f"By status: {status_line}."]


def op_table(node_cases, results):
    ops = collections.defaultdict(lambda: {"passed": 0, "failed": 0, "out of scope": 0, "first": None, "why": None})
    for r in node_cases:
        entry = ops[op_of(r, results)]
        if r["status"] == "passed":
            entry["passed"] += 1
        elif r["status"] == "out-of-scope":
            entry["out of scope"] += 1
            entry["why"] = entry["why"] or re.sub(r"^\w+: ", "", r["error"])
        else:
            entry["failed"] += 1
            entry["first"] = entry["first"] or failure(r)
    verdicts = collections.Counter(verdict(e) for e in ops.values())
    lines = [f"{len(ops)} ops: " + ", ".join(f"{v} {verdicts[v]}" for v in ("passed", "failed", "out of scope")) + ".",
             "", "| op | verdict | passed | failed | out of scope | first failure, or why out of scope |",
             "|---|---|---:|---:|---:|---|"]
    for op in sorted(ops, key=str.lower):
        e = ops[op]
        note = e["first"] or (e["why"] if not e["passed"] else "")
        lines.append(f"| {op} | {verdict(e)} | {e['passed']} | {e['failed']} | {e['out of scope']} | {cell(note or '')} |")
    return lines


def model_table(model_cases):
    lines = ["| case | kind | result |", "|---|---|---|"]
    for r in sorted(model_cases, key=lambda r: (r["kind"], r["name"])):
        result = "passed" if r["status"] == "passed" else \
            ("out of scope: " + r["error"] if r["status"] == "out-of-scope" else failure(r))
        name = r["name"] + (f" (from opset {r['converted_from_opset']})" if r.get("converted_from_opset") else "")
        lines.append(f"| {name} | {r['kind']} | {cell(result)} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--write-expected")
    args = parser.parse_args()
    by_name = read_results(args.results)
    results = list(by_name.values())
    node_cases = [r for r in results if r["kind"] == "node"]
    model_cases = [r for r in results if r["kind"] != "node"]
    seconds = sum(r["ms"] for r in results) / 1000
    doc = [
        "# ONNX conformance",
        "",
        "ONNX's backend test cases (onnx 1.23.2: the node cases of",
        "`onnx.backend.test.case.node` and the `simple`, `pytorch-converted`,",
        "`pytorch-operator` and `light` model cases) run through tcc by",
        "`tcc-onnx-conformance` (test/onnx/): each case is imported, run by the",
        "reference interpreter and compiled and run by the runtime, and every",
        "output is compared with ONNX's expected one at the case's tolerance.",
        "Cases that tcc leaves out by design (issue 13's scope: the ops of",
        "onnx/lib/OutOfScope.def, domains other than ai.onnx, opsets below 11,",
        "non-tensor values, element types tcc lacks, Dropout in training mode)",
        "count as out of scope. Models below opset 11 run after",
        "`onnx.version_converter` converted them to opset 11 (write-cases.py);",
        "those it cannot convert stay out of scope. A case is of a float dtype",
        "when one of its graph inputs or outputs is a floating-point tensor.",
        "",
        f"Generated on {datetime.date.today().isoformat()} ({len(results)} cases, {seconds:.0f} s of case time) by:",
        "",
        "```sh",
        COMMAND,
        "```",
        "",
        "## Summary",
        "",
        *summary(results),
        "",
        "## Ops (node cases)",
        "",
        *op_table(node_cases, by_name),
        "",
        "## Model cases",
        "",
        *model_table(model_cases),
        "",
    ]
    with open(args.output, "w") as f:
        f.write("\n".join(doc))
    if args.write_expected:
        with open(args.write_expected, "w") as f:
            f.write("# The ONNX cases that pass: the OnnxConformance.* ctest shards fail when\n"
                    "# one of them does not. Regenerate with test/onnx/report.py --write-expected.\n")
            f.writelines(name + "\n" for name in sorted(n for n, r in by_name.items() if r["status"] == "passed"))
    print(f"report.py: {len(results)} cases -> {args.output}")


if __name__ == "__main__":
    main()
