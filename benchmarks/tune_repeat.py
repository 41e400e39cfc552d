#!/usr/bin/env python3
"""Does kopt tune name the same winner when it runs again? Two tunes of one kernel, each measuring
everything afresh (its own cache), then, when their winners differ, the two tuned kernels compared
with `kopt compare` in turns: a different winner is acceptable only when it is neutral against
the first (the space has two configurations that the GPU cannot tell apart).

  tune_repeat.py --kopt KOPT --kernel K --ref REF [--strategy gp] [--budget 16] --out DIR -- DIMS...

Prints a Markdown report.
"""

import argparse
import json
import pathlib
import time

from tune_side_by_side import compare_in_turns, kopt_tune


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--kernel", required=True, type=pathlib.Path)
    parser.add_argument("--ref", required=True, type=pathlib.Path)
    parser.add_argument("--strategy", default="gp")
    parser.add_argument("--budget", type=int, default=16)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("dims", nargs="*")
    args = parser.parse_args()

    runs = []
    for name in ("first", "second"):
        out = (args.out / name).resolve()
        out.mkdir(parents=True, exist_ok=True)
        runs.append(kopt_tune(args.kopt, args.kernel, args.ref, args.dims, args.strategy, args.budget, out))
    print(f"# kopt tune twice: {args.kernel.name} {' '.join(args.dims)}, --strategy {args.strategy} "
          f"--budget {args.budget}\n")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print("| run | evaluations | wall [s] | winner | median [ms] | how |")
    print("|---|---|---|---|---|---|")
    for name, (side, result) in zip(("first", "second"), runs):
        print(f"| {name} | {side['evaluations']} | {side['wall_s']:.1f} | {result['winner']['configuration']} | "
              f"{result['winner']['median_ms']:.4f} | {side['how']} |")
    first, second = (result["winner"] for _, result in runs)
    if first["configuration"] == second["configuration"]:
        print("\nThe same winner both times.")
        return
    verdict = compare_in_turns(args.kopt, first["tuned_file"], second["tuned_file"], args.dims, args.out.resolve())
    (args.out / "compare.json").write_text(json.dumps(verdict, indent=1) + "\n")
    print(f"\nDifferent winners; `kopt compare` in turns, the second's against the first's: **{verdict['outcome']}**, "
          f"{verdict['ratio']:.4f}x the time (95 % interval [{verdict['ratio_ci95'][0]:.4f}, "
          f"{verdict['ratio_ci95'][1]:.4f}])")


if __name__ == "__main__":
    main()
