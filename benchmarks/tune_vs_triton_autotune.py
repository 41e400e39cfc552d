#!/usr/bin/env python3
"""kopt tune and Triton's @triton.autotune on the same space, in one run, on one GPU.

  tune_vs_triton_autotune.py --kopt KOPT [--budget 10] [--strategy gp] [--truth FILE] --out DIR

The kernel is examples/triton_matmul.py at M = N = K = 4096 (bf16 in and out). Every configuration
its `# kopt: tune(...)` annotations allow becomes one `triton.Config` of its autotuner (GROUP_M as the
module's own first config has it), and Triton's autotuner times them all with its own benchmark
in this process, at the first call; kopt tune measures at most --budget of them, each judged against
triton_matmul_ref.py and benched in a process of its own. Each tool starts from an empty Triton
cache of its own, so both pay for compiling what they measure.

Triton's choice is pinned the way kopt pins a configuration (kopt's tuned module, with Triton's
values in the pin's call), and `kopt compare` compares the two winners in turns: that verdict, not
either tool's own timer, says which is faster. Prints a Markdown report; outputs stay under --out.
"""

import argparse
import importlib.util
import json
import os
import pathlib
import re
import time

from tune_side_by_side import allowed_configurations, compare_in_turns, kopt_tune, print_report, the_space

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNEL = ROOT / "examples" / "triton_matmul.py"
REFERENCE = ROOT / "examples" / "triton_matmul_ref.py"
DIMS = {"M": 4096, "N": 4096, "K": 4096}
DIM_FLAGS = [f"--{name}={value}" for name, value in DIMS.items()]
LAUNCH_OPTIONS = ("num_warps", "num_stages")


def triton_side(space, out):
    os.environ["TRITON_CACHE_DIR"] = str(out / "triton_cache")
    import torch
    import triton

    spec = importlib.util.spec_from_file_location("triton_matmul_autotuned", KERNEL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    base = module.CONFIGS[0].kwargs
    configurations = allowed_configurations(space, DIMS)
    module.matmul_tiles.configs = [
        triton.Config({**base, **{k: v for k, v in c.items() if k not in LAUNCH_OPTIONS}},
                      **{k: c[k] for k in LAUNCH_OPTIONS}) for c in configurations]
    problem = module.setup(seed=0, **DIMS)
    torch.cuda.synchronize()
    began = time.perf_counter()
    module.run_kernel(**problem["inputs"])  # the autotuner's search, then one launch of its choice
    torch.cuda.synchronize()
    wall = time.perf_counter() - began
    best = module.matmul_tiles.best_config
    chosen = {**best.kwargs, "num_warps": best.num_warps, "num_stages": best.num_stages}
    timings = getattr(module.matmul_tiles, "configs_timings", None) or {}
    own_ms = timings.get(best)
    own_ms = own_ms[0] if isinstance(own_ms, (list, tuple)) else own_ms
    return {
        "tool": "Triton @autotune",
        "evaluations": len(configurations),
        "wall_s": wall,
        "values": {p["name"]: int(chosen[p["name"]]) for p in space["parameters"]},
        "own_time_ms": float(own_ms) if own_ms is not None else float("nan"),
        "how": f"least of its own benchmark over all {len(configurations)} configs (do_bench, in one process)",
    }


def pinned_copy(tuned_file, space, values, out):
    """kopt's tuned module with the pin's call naming `values` instead."""
    text = pathlib.Path(tuned_file).read_text()
    call = "_kopt_pin(globals(), {" + ", ".join(f'"{p["name"]}": {values[p["name"]]}' for p in space["parameters"]) + "})"
    pinned, count = re.subn(r"^_kopt_pin\(globals\(\), \{.*\}\)$", call, text, flags=re.MULTILINE)
    if count != 1:
        raise SystemExit(f"{tuned_file} holds {count} pin calls, not one")
    path = out / "triton_autotune_choice.py"
    path.write_text(pinned)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--budget", type=int, default=10)
    parser.add_argument("--strategy", default="gp")
    parser.add_argument("--truth", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)

    space = the_space(args.kopt, KERNEL, DIM_FLAGS)
    kopt, result = kopt_tune(args.kopt, KERNEL, REFERENCE, DIM_FLAGS, args.strategy, args.budget, args.out,
                             env={"TRITON_CACHE_DIR": str(args.out / "kopt_triton_cache")})
    triton = triton_side(space, args.out)
    choice = pinned_copy(result["winner"]["tuned_file"], space, triton["values"], args.out)
    verdict = compare_in_turns(args.kopt, choice, result["winner"]["tuned_file"], DIM_FLAGS, args.out)
    truth = json.loads(args.truth.read_text()) if args.truth else None
    print_report(f"kopt tune and Triton @autotune, triton_matmul.py at M=N=K=4096, kopt's budget {args.budget}",
                 space, [kopt, triton], verdict, truth)


if __name__ == "__main__":
    main()
