"""Prints one image of a model's cuda module: extract-cuda-image.py
MODEL.bin INSPECT.json ARCH FORMAT (the JSON of `tcc inspect --json`, which
gives each image's offset and size in the file)."""
import json
import sys

model, inspect, arch, fmt = sys.argv[1:5]
with open(inspect) as f:
    info = json.load(f)
with open(model, "rb") as f:
    data = f.read()
for module in info["code_modules"]:
    for image in module.get("images", []):
        if image["arch"] == arch and image["format"] == fmt:
            sys.stdout.buffer.write(
                data[image["offset"]:image["offset"] + image["bytes"]])
            sys.exit(0)
sys.exit("no %s image for %s" % (fmt, arch))
