#!/usr/bin/env python3
"""benchmarks/before_after.py's report: the table a before/after run is judged by. Records as the
GPU run appends them; the report must call a moved figure a move, and an unmoved one not."""

import inspect
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "before_after.py")


def records(fidelity_after, slower_after_hits):
    lines = [{"kind": "build", "build": "before", "kopt": "/a/kopt", "version": "kopt 0.1.0 (commit a)"},
             {"kind": "build", "build": "after", "kopt": "/b/kopt", "version": "kopt 0.1.0 (commit b)"}]
    for i in range(20):
        lines.append({"kind": "fidelity", "build": "before", "round": i, "value": 1.00 + 0.002 * (i % 5)})
        lines.append({"kind": "fidelity", "build": "after", "round": i, "value": fidelity_after + 0.002 * (i % 5)})
        lines.append({"kind": "aa", "build": "before", "round": i, "outcome": "neutral", "ratio": 1.0})
        lines.append({"kind": "aa", "build": "after", "round": i, "outcome": "neutral" if i else "positive",
                      "ratio": 1.0})
        lines.append({"kind": "slower", "build": "before", "round": i, "outcome": "negative", "ratio": 1.03})
        lines.append({"kind": "slower", "build": "after", "round": i,
                      "outcome": "negative" if i < slower_after_hits else "inconclusive", "ratio": 1.03})
    return lines


def run_report(lines):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "records.jsonl")
        with open(path, "w") as f:
            f.write("".join(json.dumps(line) + "\n" for line in lines))
        out = os.path.join(folder, "table.md")
        run = subprocess.run([sys.executable, SCRIPT, "--records", path, "--report", out], capture_output=True,
                             text=True)
        with open(out) as f:
            return run.returncode, f.read()


class BeforeAfterReport(unittest.TestCase):
    def test_figures_that_did_not_move_overlap(self):
        status, table = run_report(records(fidelity_after=1.001, slower_after_hits=20))
        self.assertEqual(status, 0, table)
        self.assertIn("| kopt hot / ncu | 1.0040 [", table)
        self.assertIn("| A/A: neutral or inconclusive | 20/20 [", table)
        self.assertIn("19/20", table)
        self.assertIn("Every pair of intervals overlaps.", table)
        self.assertIn("| kopt wall / toolkit wall | not measured | not measured | - |", table)

    def test_a_moved_fidelity_is_named(self):
        status, table = run_report(records(fidelity_after=1.05, slower_after_hits=20))
        self.assertEqual(status, 1, table)
        self.assertIn("| kopt hot / ncu |", table)
        self.assertIn("**no**", table)

    def test_a_judge_that_stopped_finding_the_slower_kernel_is_named(self):
        status, table = run_report(records(fidelity_after=1.001, slower_after_hits=8))
        self.assertEqual(status, 1, table)
        row = [line for line in table.splitlines() if line.startswith("| 3 % slower")][0]
        self.assertIn("8/20", row)
        self.assertTrue(row.endswith("**no** |"), row)


BENCHMARKS = os.path.dirname(SCRIPT)


def checked(test, module, name, answer):
    """Stands in for module.name: refuses a call that the real function's signature would refuse
    (before_after.py imports what it measures with from loop_verdicts.py and its neighbours, whose
    signatures can change under it), and answers like it."""
    real = getattr(module, name)

    def stand_in(*args, **kwargs):
        inspect.signature(real).bind(*args, **kwargs)
        return answer(*args)
    setattr(module, name, stand_in)
    test.addCleanup(setattr, module, name, real)


class BeforeAfterMeasuring(unittest.TestCase):
    """The measuring path, with the GPU's figures stood in: every call it makes must fit what it
    calls, and a round must record each measure for both builds (a failure is recorded too, and
    would fail this test)."""

    def rounds(self, measures):
        """The records of one round of `measures`, with the GPU's figures stood in."""
        sys.path.insert(0, BENCHMARKS)
        import before_after
        import kopt_bench_run
        import kopt_vs_ncu
        import loop_verdicts
        import speed_benchmark
        checked(self, kopt_bench_run, "kopt_bench", lambda *a: ({}, 1.0))
        checked(self, kopt_vs_ncu, "kopt_median_us", lambda *a: (10.0, []))
        checked(self, kopt_vs_ncu, "ncu_call_us", lambda *a: (9.5, []))
        checked(self, loop_verdicts, "compare", lambda *a: ({"outcome": "neutral", "ratio": 1.0}, None))
        checked(self, loop_verdicts, "calibrate_slowdown", lambda *a: (1234, 1.03))
        checked(self, speed_benchmark, "toolkit_case", lambda *a: (lambda: (2.0, None)))
        with tempfile.TemporaryDirectory() as folder:
            kopts = []
            for name in ("before", "after"):
                kopt = os.path.join(folder, name)
                with open(kopt, "w") as f:
                    f.write(f"#!/bin/sh\necho kopt 0.1.0 {name}\n")
                os.chmod(kopt, os.stat(kopt).st_mode | stat.S_IEXEC)
                kopts.append(kopt)
            records = os.path.join(folder, "records.jsonl")
            args = before_after.argparse.Namespace(before=kopts[0], after=kopts[1], records=records,
                                                   toolkit=folder, python=sys.executable, rounds=1,
                                                   minutes=float("inf"), calls=20, measures=measures)
            before_after.measure(args)
            return [json.loads(line) for line in open(records)]

    def test_a_round_calls_what_it_imports_as_it_is_written(self):
        lines = self.rounds(["fidelity", "aa", "slower", "wall"])
        self.assertEqual([r for r in lines if r["kind"] == "failure"], [])
        measured = sorted((r["kind"], r["build"]) for r in lines if "round" in r and r["kind"] != "round")
        self.assertEqual(measured, sorted((kind, build) for kind in ("fidelity", "aa", "slower", "wall")
                                          for build in ("before", "after")))
        self.assertIn({"kind": "calibration", "cycles": 1234, "ratio": 1.03}, lines)

    def test_a_round_of_the_verdicts_alone_takes_only_them(self):
        lines = self.rounds(["aa", "slower"])
        self.assertEqual([r for r in lines if r["kind"] == "failure"], [])
        measured = sorted((r["kind"], r["build"]) for r in lines if "round" in r and r["kind"] != "round")
        self.assertEqual(measured, sorted((kind, build) for kind in ("aa", "slower") for build in ("before", "after")))


if __name__ == "__main__":
    unittest.main()
