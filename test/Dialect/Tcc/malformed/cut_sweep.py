"""Cuts a file at evenly spaced points and runs a tool on each prefix.

Usage: cut_sweep.py TOOL INPUT COUNT [TOOL ARGS...]
Prints one line per prefix whose run crashed (exit status other than 0 or 1,
e.g. a signal) and exits 1 if there was any; prints the number of runs.
"""
import subprocess
import sys
import tempfile

tool, source, count, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
data = open(source, "rb").read()
crashes = 0
with tempfile.NamedTemporaryFile(suffix=".mlir") as prefix:
    for i in range(count):
        cut = len(data) * i // count
        prefix.seek(0)
        prefix.truncate()
        prefix.write(data[:cut])
        prefix.flush()
        status = subprocess.run([tool, prefix.name] + args,
                                capture_output=True).returncode
        if status not in (0, 1):
            crashes += 1
            print(f"crash: prefix of {cut} bytes exited with {status}")
print(f"{count} prefixes, {crashes} crashes")
sys.exit(1 if crashes else 0)
