"""The write sandbox (docs/integrity.md, "What the code under test may write"): the honest
module, whose first call writes `kopt-probe-TOKEN` into /tmp, /dev/shm and the folder
KOPT_PROBE_RUN_DIR names (a loop's run folder, say), which kopt's sandbox must refuse, and into
its own temporary folder (tempfile's), which it must allow: when that fails, it writes no
output."""

import os
import tempfile

from twice import launch

OWN_FOLDER_WRITABLE = []


def write_probe(path):
    try:
        with open(path, "w") as f:
            f.write("the kernel was here\n")
        return True
    except OSError:
        return False


def probe_once():
    name = "kopt-probe-" + os.environ.get("KOPT_PROBE_TOKEN", "none")
    write_probe(os.path.join("/tmp", name))
    write_probe(os.path.join("/dev/shm", name))
    if os.environ.get("KOPT_PROBE_RUN_DIR"):
        write_probe(os.path.join(os.environ["KOPT_PROBE_RUN_DIR"], name))
    return write_probe(os.path.join(tempfile.gettempdir(), name))


def run_kernel(*, x, y, N, **_):
    if not OWN_FOLDER_WRITABLE:
        OWN_FOLDER_WRITABLE.append(probe_once())
    if OWN_FOLDER_WRITABLE[0]:
        launch(x, y, N)
