#!/usr/bin/env python3
"""kopt tune and Kernel Tuner on the same space and budget, in one run, on one GPU.

  tune_vs_kernel_tuner.py --kopt KOPT [--budget 16] [--kopt-strategy gp] \
      [--kt-strategy bayes_opt] [--truth benchmarks/results/tune/matmul-h200.json] --out DIR

The kernel is benchmarks/tune/tiled_matmul.cu at M = N = K = 2048: its `tune(...)`/`restrict(...)`
annotations are the space for both tools (kopt reads them; Kernel Tuner gets the same values and the
same restrictions, evaluated here). Kernel Tuner launches the file's `__global__` kernel itself
(CuPy backend, NVRTC), verifies each configuration against a float64 product and times it with its
own events; kopt judges each one against examples/matmul_ref.py and benches it under its protocol.

Each tool's winner is written into a copy of the kernel (`#define` before its `#ifndef` defaults),
and the two copies are compared with `kopt compare` in turns: that verdict, not either tool's own
timer, says which winner is faster. With --truth (an exhaustive ground truth measured by
tune_ground_truth.py on the same GPU model) each winner's place among all configurations is shown.
Prints a Markdown report; the tools' own outputs stay under --out.
"""

import argparse
import json
import pathlib
import sys
import time

from tune_side_by_side import allowed, compare_in_turns, kopt_tune, print_report, the_space

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNEL = ROOT / "benchmarks" / "tune" / "tiled_matmul.cu"
REFERENCE = ROOT / "examples" / "matmul_ref.py"
DIMS = {"M": 2048, "N": 2048, "K": 2048}
DIM_FLAGS = [f"--{name}={value}" for name, value in DIMS.items()]


def tuned_copy(out, name, space, values):
    """The kernel with one configuration's values defined ahead of its `#ifndef` defaults."""
    lines = [f"#define {p['name']} {values[p['name']]}" for p in space["parameters"]]
    path = out / f"{name}_winner.cu"
    path.write_text("\n".join(lines) + "\n" + KERNEL.read_text())
    return path


def uuid_as_kernel_tuner_reads_it():
    """Kernel Tuner 1.5.0's CuPy backend reads the device's UUID as 16 bytes for its environment
    record, and CuPy 14 hands it over otherwise (on the GPU machine: "ValueError: bytes is not a
    16-char string" before any configuration ran). Only that record uses it: give it 16 bytes."""
    import cupy

    original = cupy.cuda.runtime.getDeviceProperties

    def properties(device):
        props = dict(original(device))
        raw = props.get("uuid", b"")
        raw = raw.encode("latin-1") if isinstance(raw, str) else bytes(raw)
        props["uuid"] = raw[:16].ljust(16, b"\0")
        return props

    cupy.cuda.runtime.getDeviceProperties = properties


def kernel_tuner_side(args, space):
    import numpy as np
    from kernel_tuner import tune_kernel

    uuid_as_kernel_tuner_reads_it()

    restrictions = space["restrictions"]
    # Kernel Tuner needs the block's thread count as a parameter; here it is fixed by the tile and
    # register-block sizes, so it is a parameter tied to them by one more restriction.
    threads = "KT_THREADS"
    tune_params = {p["name"]: p["values"] for p in space["parameters"]}
    tune_params[threads] = [32, 64, 128, 256, 512, 1024]

    def admissible(p):
        values = {name: p[name] for name in tune_params if name != threads}
        return p[threads] == p["TILE_M"] * p["TILE_N"] // (p["THREAD_M"] * p["THREAD_N"]) and allowed(
            values, restrictions, DIMS)

    device_code = KERNEL.read_text().split('extern "C"')[0]
    device_code = "\n".join(line for line in device_code.splitlines() if not line.startswith("#include"))
    rng = np.random.default_rng(0)
    m, n, k = DIMS["M"], DIMS["N"], DIMS["K"]
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    expected = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    c = np.zeros((m, n), dtype=np.float32)

    def verify(answers, outputs, atol=None):
        # Kernel Tuner hands over every argument's answer and output (None where it has none).
        # The same kind of check as kopt's float32 tolerance: relative to the values' scale.
        return all(
            np.allclose(output, reference, rtol=1e-4, atol=1e-3 * float(np.abs(reference).max()))
            for reference, output in zip(answers, outputs) if reference is not None)

    options = {"max_fevals": args.budget}
    if args.kt_strategy == "bayes_opt":
        # Its random start is 20 configurations by default, all of a budget of 16: give it the
        # start kopt's model strategies take (a quarter of the budget, 3 to 10), so that it models.
        options["popsize"] = max(3, min(10, args.budget // 4))
    began = time.perf_counter()
    results, _ = tune_kernel(
        "tiled_matmul_kernel", device_code, (n, m),
        [a, b, c, np.int32(m), np.int32(n), np.int32(k)], tune_params,
        grid_div_x=["TILE_N"], grid_div_y=["TILE_M"], block_size_names=[threads],
        restrictions=admissible, answer=[None, None, expected, None, None, None], verify=verify,
        lang="cupy", strategy=args.kt_strategy, strategy_options=options,
        quiet=True)
    wall = time.perf_counter() - began
    timed = [r for r in results if isinstance(r.get("time"), (int, float))]
    (args.out / "kernel_tuner.json").write_text(json.dumps(
        [{k: (v if isinstance(v, (int, float, str)) else str(v)) for k, v in r.items()} for r in results],
        indent=1) + "\n")
    if not timed:
        sys.exit("Kernel Tuner timed no configuration; see kernel_tuner.json")
    best = min(timed, key=lambda r: r["time"])
    return {
        "tool": f"Kernel Tuner {args.kt_strategy}",
        "evaluations": len(results),
        "wall_s": wall,
        "values": {p["name"]: int(best[p["name"]]) for p in space["parameters"]},
        "own_time_ms": best["time"],
        "how": f"least mean of its {len(timed)} timed configurations ({len(results) - len(timed)} failed)",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--budget", type=int, default=16)
    parser.add_argument("--kopt-strategy", default="gp")
    parser.add_argument("--kt-strategy", default="bayes_opt")
    parser.add_argument("--truth", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    space = the_space(args.kopt, KERNEL, DIM_FLAGS)
    kopt, _ = kopt_tune(args.kopt, KERNEL, REFERENCE, DIM_FLAGS, args.kopt_strategy, args.budget, args.out)
    sides = [kopt, kernel_tuner_side(args, space)]
    files = [tuned_copy(args.out, name, space, side["values"]) for name, side in zip(("kopt", "kt"), sides)]
    verdict = compare_in_turns(args.kopt, files[1], files[0], DIM_FLAGS, args.out)
    truth = json.loads(args.truth.read_text()) if args.truth else None
    print_report(f"kopt tune and Kernel Tuner, tiled_matmul.cu at M=N=K=2048, budget {args.budget}", space, sides,
                 verdict, truth)


if __name__ == "__main__":
    main()
