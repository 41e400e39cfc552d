#!/usr/bin/env python3
"""Replays kept comparisons (`loop_verdicts.py --keep DIR`, one JSON record each) under the
placement interval (src/measure/placement_interval.h, docs/compare.md step 4), to see what it
would have said of rounds measured before it existed: per record, the verdict it was given (the
rounds' median interval alone), the interval over the pairs of buffer sets, the verdict from the
two together, and the same with the candidate's blocks made 3 % slower (a synthetic regression
on the same rounds: what the wider interval costs in power). The rule is restated here only to
replay records offline; kopt's own is the C++ one.

Usage: python3 benchmarks/placement_replay.py DIR [--slower 1.03]
"""
import argparse
import collections
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from before_after import T95  # noqa: E402  (Student's t by degrees of freedom, as its report uses)

MARGIN = 0.01


def verdict(low, high):
    if high < 1 - MARGIN:
        return "positive"
    if low > 1 + MARGIN:
        return "negative"
    if low >= 1 - MARGIN and high <= 1 + MARGIN:
        return "neutral"
    return "inconclusive"


def pair_interval(blocks, slower):
    """The interval over the pairs of sets: exp(mean ± t * standard error) of each pair's mean log ratio."""
    rounds = collections.defaultdict(dict)
    for b in blocks:
        factor = slower if b["version"] == "candidate" else 1.0
        rounds[b["round"]][b["version"]] = (b["placement"], b["estimate_ms"] * factor)
    pairs = collections.defaultdict(list)
    for r in rounds.values():
        if len(r) == 2:
            (pc, c), (pi, i) = r["candidate"], r["incumbent"]
            pairs[(pc, pi)].append(math.log(c / i))
    means = [statistics.mean(v) for v in pairs.values()]
    if len(means) < 2:
        return None
    mean = statistics.mean(means)
    half = T95[min(len(means) - 2, len(T95) - 1)] * statistics.stdev(means) / math.sqrt(len(means))
    return math.exp(mean - half), math.exp(mean + half), len(means)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--slower", type=float, default=1.03)
    args = parser.parse_args()
    given, replayed, slowed = collections.Counter(), collections.Counter(), collections.Counter()
    print("| record | rounds | given | median interval | pairs of sets | set interval | replayed | "
          f"x{args.slower} replayed |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(args.folder, "*.json"))):
        record = json.load(open(path))
        record = record.get("comparison", record)
        low, high = record["ratio_ci95"]
        sets = pair_interval(record["blocks"], 1.0)
        slow_sets = pair_interval(record["blocks"], args.slower)
        if sets is None:
            continue
        now = verdict(min(low, sets[0]), max(high, sets[1]))
        slow = verdict(min(low * args.slower, slow_sets[0]), max(high * args.slower, slow_sets[1]))
        given[record["outcome"]] += 1
        replayed[now] += 1
        slowed[slow] += 1
        print(f"| {os.path.basename(path)} | {record['rounds']} | {record['outcome']} | [{low:.4f}, {high:.4f}] | "
              f"{sets[2]} | [{sets[0]:.4f}, {sets[1]:.4f}] | {now} | {slow} |")
    print(f"\ngiven: {dict(given)}; replayed: {dict(replayed)}; x{args.slower} replayed: {dict(slowed)}")


if __name__ == "__main__":
    main()
