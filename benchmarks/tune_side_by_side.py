"""What the benchmarks that set kopt tune beside another tuner share (tune_vs_kernel_tuner.py,
tune_vs_triton_autotune.py): the kernel's space as kopt reads it, kopt tune's run, the winners
compared with `kopt compare` in turns, and the report."""

import itertools
import json
import os
import re
import subprocess
import sys
import time


def run(command, **kwargs):
    print("$ " + " ".join(str(c) for c in command), file=sys.stderr)
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)


def the_space(kopt, kernel, dim_flags):
    """The parameters and restrictions as `kopt inspect` reads them from the kernel's annotations."""
    done = run([kopt, "inspect", kernel, "--json"] + dim_flags)
    if done.returncode != 0:
        sys.exit(f"kopt inspect failed: {done.stderr.strip()}")
    return json.loads(done.stdout)["tune"]


def python_condition(condition):
    """A restriction of kopt's annotation grammar as a Python expression over integers."""
    text = condition.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    return text.replace("/", "//")


def allowed(values, restrictions, dims):
    scope = dict(dims, **values)
    return all(eval(python_condition(r), {"__builtins__": {}}, scope) for r in restrictions)


def allowed_configurations(space, dims):
    """Every configuration the restrictions allow, in kopt's order (the last parameter fastest); the
    count is checked against kopt's own."""
    names = [p["name"] for p in space["parameters"]]
    out = [dict(zip(names, values)) for values in itertools.product(*(p["values"] for p in space["parameters"]))]
    out = [c for c in out if allowed(c, space["restrictions"], dims)]
    if len(out) != space["allowed"]:
        sys.exit(f"the restrictions here allow {len(out)} configurations, kopt {space['allowed']}")
    return out


def configuration_text(space, values):
    return " ".join(f"{p['name']}={values[p['name']]}" for p in space["parameters"])


def truth_place(truth, text):
    """Where a configuration stands among an exhaustive ground truth's passing ones."""
    passed = sorted((m for m in truth["measured"] if m["status"] == "ok"), key=lambda m: m["median_ms"])
    for place, m in enumerate(passed, 1):
        if m["configuration"] == text:
            return f"{place} of {len(passed)} ({m['median_ms'] / passed[0]['median_ms']:.3f}x the best)"
    return "not in the truth"


def kopt_tune(kopt, kernel, ref, dim_flags, strategy, budget, out, env=None):
    """One `kopt tune` with a cache of its own (nothing read from an earlier tune): the side's
    figures and its result."""
    command = [kopt, "tune", kernel, "--ref", ref, "--strategy", strategy, "--budget", budget, "--fresh", "--json",
               "--out", out / "kopt_runs"] + dim_flags
    began = time.perf_counter()
    done = run(command, env=dict(os.environ, KOPT_CACHE_DIR=str(out / "kopt_cache"), **(env or {})))
    wall = time.perf_counter() - began
    (out / "kopt_tune.err").write_text(done.stderr)
    if done.returncode != 0:
        sys.exit(f"kopt tune failed ({done.returncode}): {done.stderr.strip()[-1500:]}")
    result = json.loads(done.stdout)
    (out / "kopt_tune.json").write_text(json.dumps(result, indent=1) + "\n")
    winner = dict(d.split("=") for d in result["winner"]["defines"])
    side = {"tool": f"kopt tune --strategy {strategy}", "evaluations": len(result["measured"]), "wall_s": wall,
            "values": {k: int(v) for k, v in winner.items()}, "own_time_ms": result["winner"]["median_ms"],
            "how": result["winner"].get("reason", "")}
    return side, result


def compare_in_turns(kopt, baseline, candidate, dim_flags, out):
    """`kopt compare BASELINE CANDIDATE`: its document."""
    done = run([kopt, "compare", baseline, candidate, "--json"] + dim_flags)
    (out / "compare.err").write_text(done.stderr)
    if done.returncode not in (0, 1):
        sys.exit(f"kopt compare failed ({done.returncode}): {done.stderr.strip()[-1500:]}")
    return json.loads(done.stdout)


def print_report(title, space, sides, verdict, truth):
    """The Markdown report: each side's figures, then the verdict of sides[0]'s winner (the
    candidate) against sides[1]'s (the baseline)."""
    gpu = run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]).stdout.strip()
    print(f"# {title}\n")
    print(f"GPU: {gpu}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"{space['allowed']} allowed configurations of {space['configurations']}\n")
    print("| tool | evaluations | wall [s] | wall per evaluation [s] | winner | its own time [ms] |"
          + (" place in the exhaustive truth |" if truth else ""))
    print("|---|---|---|---|---|---|" + ("---|" if truth else ""))
    for side in sides:
        text = configuration_text(space, side["values"])
        row = (f"| {side['tool']} | {side['evaluations']} | {side['wall_s']:.1f} | "
               f"{side['wall_s'] / max(side['evaluations'], 1):.2f} | {text} | {side['own_time_ms']:.4f} |")
        print(row + (f" {truth_place(truth, text)} |" if truth else ""))
    print()
    for side in sides:
        print(f"- {side['tool']} chose by: {side['how']}")
    same = " (the same configuration)" if sides[0]["values"] == sides[1]["values"] else ""
    print(f"\n`kopt compare` in turns{same}, {sides[0]['tool']}'s winner against {sides[1]['tool']}'s: "
          f"**{verdict['outcome']}**, {verdict['ratio']:.4f}x the time "
          f"(95 % interval [{verdict['ratio_ci95'][0]:.4f}, {verdict['ratio_ci95'][1]:.4f}])")
