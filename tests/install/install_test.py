"""kopt installed as a user installs it: `cmake --install` into a prefix, the prefix moved
elsewhere, and the wheel made of it installed by pip without an index. Each kopt must find its
companion files beside itself (src/core/install_layout.h) wherever it lands.

Usage: install_test.py --cmake CMAKE --build BUILD_DIR --source SOURCE_DIR
"""

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

ARGS = None


def run(*argv, cwd=None):
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, argv))}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


class InstalledKopt(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="kopt-install-test-"))
        self.addCleanup(shutil.rmtree, self.scratch, ignore_errors=True)
        self.source = Path(ARGS.source)
        self.prefix = self.scratch / "prefix"
        run(ARGS.cmake, "--install", ARGS.build, "--prefix", self.prefix)

    def check_works_from(self, prefix):
        """kopt at `prefix` runs and installs its skills, with their documents, into a project."""
        kopt = prefix / "bin" / "kopt"
        self.assertTrue(os.access(kopt, os.X_OK), kopt)
        self.assertTrue(run(kopt, "--version").startswith("kopt "))
        project = self.scratch / f"project_{prefix.name}"
        project.mkdir()
        listed = json.loads(run(kopt, "skills", "install", "--json", cwd=project))
        self.assertEqual(sorted(s["name"] for s in listed["skills"]), ["kopt-bench", "kopt-optimize", "kopt-profile"])
        loop_doc = project / ".claude/skills/kopt-optimize/docs/loop.md"
        self.assertEqual(loop_doc.read_text(), (self.source / "docs/loop.md").read_text())
        self.assertEqual(json.loads((project / ".mcp.json").read_text())["mcpServers"]["kopt"]["command"], str(kopt))

    def test_the_prefix_holds_kopt_and_every_companion_file(self):
        p = self.prefix
        self.assertTrue((p / "lib/libkopt_harness_abi.so").is_file())
        runtime = sorted(f.name for f in (self.source / "python/kopt_runtime").glob("*.py"))
        self.assertGreater(len(runtime), 5)
        self.assertEqual(sorted(f.name for f in (p / "share/kopt/kopt_runtime").glob("*.py")), runtime)
        self.assertTrue((p / "share/kopt/kopt_runner.py").is_file())
        skills = sorted(f.parent.name for f in (p / "share/kopt/skills").glob("*/SKILL.md"))
        self.assertEqual(skills, ["kopt-bench", "kopt-optimize", "kopt-profile"])
        docs = sorted(f.name for f in (self.source / "docs").glob("*.md"))
        self.assertEqual(sorted(f.name for f in (p / "share/doc/kopt/docs").glob("*.md")), docs)
        self.assertTrue((p / "share/doc/kopt/examples/softmax_naive.cu").is_file())
        self.assertTrue((p / "share/doc/kopt/README.md").is_file())

    def test_a_moved_prefix_still_works(self):
        moved = self.scratch / "elsewhere"
        self.prefix.rename(moved)
        self.check_works_from(moved)

    def test_the_wheel_carries_the_prefix_and_installs_without_an_index(self):
        sys.path.insert(0, str(self.source / "wheel"))
        import kopt_wheel_backend
        name = kopt_wheel_backend.wheel_from_prefix(self.prefix, self.scratch)
        self.assertRegex(name, r"^kopt-\d+\.\d+\.\d+-py3-none-manylinux_\d+_\d+_[a-z0-9_]+\.whl$")
        with zipfile.ZipFile(self.scratch / name) as wheel:
            names = wheel.namelist()
            version = name.split("-")[1]
            script = wheel.getinfo(f"kopt-{version}.data/scripts/kopt")
            self.assertEqual((script.external_attr >> 16) & 0o777, 0o755)
            self.assertIn(f"kopt-{version}.data/data/lib/libkopt_harness_abi.so", names)
            metadata = wheel.read(f"kopt-{version}.dist-info/METADATA").decode()
            self.assertNotIn("Requires-Dist", metadata)
            record = list(csv.reader(io.StringIO(wheel.read(f"kopt-{version}.dist-info/RECORD").decode())))
            self.assertEqual(len(record), len(names))
            for path, digest, size in record:
                if not digest:
                    continue
                data = wheel.read(path)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual((digest, int(size)), (f"sha256={expected}", len(data)), path)
        installed = self.scratch / "pip_prefix"
        run(sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet", "--prefix", installed,
            self.scratch / name)
        self.check_works_from(installed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
