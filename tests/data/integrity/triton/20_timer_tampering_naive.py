"""Class 20, timer tampering (naive): at import, patches the Python runner so that whatever it
writes says the kernel took a microsecond; computes right. kopt's result is written by its
harness library, out of Python's reach: the run must pass with real samples."""

import json
import sys

from twice import launch

for name in list(sys.modules):
    if name.startswith("kopt_runtime"):
        module = sys.modules[name]
        if hasattr(module, "write_json_atomically"):
            def forged(path, document, *_):
                with open(path, "w", encoding="utf-8") as f:
                    json.dump({"status": "ok", "kernel": {"median_ms": 0.001}}, f)
            module.write_json_atomically = forged
_dumps = json.dumps
json.dumps = lambda document, *args, **kwargs: _dumps(
    dict(document, median_ms=0.001) if isinstance(document, dict) and "median_ms" in document else document,
    *args, **kwargs)


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
