#!/usr/bin/env python3
"""Replays kopt tune's strategies on exhaustive ground truth (tune_ground_truth.py), on the CPU.

For each ground-truth file and seed, a strategy chooses configurations one at a time up to the
budget (a fraction of the allowed configurations, --fraction); each choice is "measured" by
looking up its median in the truth (a configuration that failed the judge is a failure, which
counts against the budget as in kopt tune). Reported per kernel and strategy, over the seeds:
the best found against the true best (median and worst run), how many runs came within
--within of it, and the evaluations the median run needed to get there.

gp and tpe are kopt's own strategy code (share/kopt/kopt_tune_strategy.py, imported from
python/; gp needs torch and scipy); random samples the allowed configurations uniformly without
replacement, as kopt's random order does; exhaustive takes them in the declared order (the same
for every seed).

Usage: tune_replay.py TRUTH.json... [--seeds 20] [--fraction 0.2] [--within 0.02] [--strategies gp,tpe,random,exhaustive]
"""

import argparse
import json
import math
import pathlib
import random
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "python"))
import kopt_tune_strategy  # noqa: E402


def space_of(truth):
    """The parameters and allowed configurations, in the truth's order, from the configuration names."""
    names, values = [], {}
    allowed = []
    for m in truth["measured"]:
        pairs = [item.split("=") for item in m["configuration"].split()]
        for name, value in pairs:
            if name not in values:
                names.append(name)
                values[name] = []
            if int(value) not in values[name]:
                values[name].append(int(value))
        allowed.append([int(v) for _, v in pairs])
    parameters = [{"name": n, "values": sorted(values[n])} for n in names]
    return {"parameters": parameters, "allowed": allowed}


def median_of(truth):
    return [m["median_ms"] if m["status"] == "ok" else None for m in truth["measured"]]


def model_replay(strategy):
    def replay(space, medians, budget, seed):
        history = []
        while len(history) < budget:
            index = kopt_tune_strategy.propose(space, history, seed, budget, strategy)
            if index is None:
                break
            history.append((index, medians[index]))
        return [index for index, _ in history]

    return replay


def replay_random(space, medians, budget, seed):
    return random.Random(seed).sample(range(len(space["allowed"])), budget)


def replay_exhaustive(space, medians, budget, seed):
    return list(range(budget))


STRATEGIES = {"gp": model_replay("gp"), "tpe": model_replay("tpe"), "random": replay_random,
              "exhaustive": replay_exhaustive}


def evaluations_to_reach(order, medians, target):
    for n, index in enumerate(order, start=1):
        if medians[index] is not None and medians[index] <= target:
            return n
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("truths", nargs="+", type=pathlib.Path)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--fraction", type=float, default=0.2)
    parser.add_argument("--within", type=float, default=0.02)
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    args = parser.parse_args()
    chosen = args.strategies.split(",")
    unknown = [name for name in chosen if name not in STRATEGIES]
    if unknown:
        sys.exit(f"no strategy called {', '.join(unknown)}: choose from {', '.join(STRATEGIES)}")
    print("| kernel | allowed | budget | strategy | best found / true best: median | worst | runs within "
          f"{args.within:.0%} | evaluations to get there: median run |")
    print("|---|---|---|---|---|---|---|---|")
    for path in args.truths:
        truth = json.loads(path.read_text())
        if not truth.get("complete"):
            sys.exit(f"{path}: the ground truth is partial; measure the rest with tune_ground_truth.py")
        space, medians = space_of(truth), median_of(truth)
        best = min(m for m in medians if m is not None)
        budget = max(1, math.floor(args.fraction * len(medians)))
        for name in chosen:
            strategy = STRATEGIES[name]
            ratios, reached = [], []
            for seed in range(args.seeds):
                order = strategy(space, medians, budget, seed)
                found = [medians[i] for i in order if medians[i] is not None]
                ratios.append(min(found) / best if found else math.inf)
                n = evaluations_to_reach(order, medians, best * (1 + args.within))
                reached.append(n if n is not None else math.inf)
            within = sum(1 for r in ratios if r <= 1 + args.within)
            median_reach = statistics.median(reached)
            print(f"| {truth['kernel']} | {len(medians)} | {budget} | {name} | {statistics.median(ratios):.3f} | "
                  f"{max(ratios):.3f} | {within}/{args.seeds} | "
                  f"{'not within the budget' if math.isinf(median_reach) else f'{median_reach:g}'} |")


if __name__ == "__main__":
    main()
