#!/usr/bin/env python3
"""kopt tune's model-based strategies: which configuration to measure next, given those measured.

kopt starts it for `kopt tune --strategy gp` or `--strategy tpe`; users never call it. It
proposes with one of Optuna's samplers: gp, a Gaussian process with expected improvement (needs
torch and scipy), or tpe, the tree-structured Parzen estimator. Each parameter is the position
of its value in the list the kernel declares (so that 64 < 128 < 256 keeps its order), the model
sees the logarithm of every median measured so far (times spread over a factor of several, and a
model of their logarithm ranks the fast region better; a configuration that failed the judge
counts as twice the slowest that passed), and a proposal the restrictions forbid, or one already
measured, becomes the nearest allowed configuration not yet measured.

The last quarter of a budget refines instead of modelling: each of those proposals is the
nearest configuration not yet measured to the fastest so far (without a budget, every fourth
proposal after the random start is such a step). Replayed on the measured spaces of
benchmarks/tune/, this finish took the median run from 3 % over the best to the best itself.

A proposal depends only on the seed and what was measured (the sampler is seeded with both), so
a tune repeated, or resumed from the cache, proposes the same configurations.

The talk, one JSON line each way on standard input (a socket; replies are written to it):
  kopt:  {"strategy": "gp" or "tpe", "seed": S, "budget": N or null, "parameters": [{"name": "BLOCK", "values": [64, 128]}, ...],
          "allowed": [[64, 1], [64, 2], ...]}
  this:  "ready", or "error: WHY" (a package missing, say) and the process ends
  kopt:  {"measured": [[INDEX, MEDIAN_MS or null], ...], "pending": [INDEX, ...]}
         (every configuration so far, by its index in "allowed"; pending: proposed and being
         measured on another GPU, never proposed again, not yet in the model)
  this:  {"next": INDEX}, or {"next": null} when every allowed configuration is measured
  kopt:  {"measured": [...], "upcoming": COUNT}
  this:  {"upcoming": [INDEX, ...]}: the next proposals that no time measured meanwhile can
         change (the random start's), the next one first, at most COUNT: what kopt builds ahead
End-of-file ends the process."""

import importlib.util
import json
import math
import os
import sys
import warnings

# The packages each strategy imports; tune_requirements.txt, beside this file, pins their versions.
PACKAGES = {"tpe": ["optuna"], "gp": ["optuna", "torch", "scipy"]}


def pinned():
    """The pinned requirements, as pip takes them."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tune_requirements.txt")
    with open(path) as lines:
        return " ".join(line.strip() for line in lines if line.strip() and not line.startswith("#"))

# The startup trials a sampler draws at random before it models: a quarter of the budget, at least
# 3 and at most Optuna's default of 10, so that a small budget leaves most evaluations to the model.
MIN_STARTUP = 3
MAX_STARTUP = 10


def startup_trials(budget, allowed_count):
    evaluations = budget if budget is not None else allowed_count
    return max(MIN_STARTUP, min(MAX_STARTUP, evaluations // 4))


def positions(space):
    """Each allowed configuration as the positions of its values, scaled to [0, 1] per parameter."""
    scaled = []
    for config in space["allowed"]:
        point = []
        for value, parameter in zip(config, space["parameters"]):
            values = parameter["values"]
            point.append(values.index(value) / max(1, len(values) - 1))
        scaled.append(point)
    return scaled


def nearest_unmeasured(point, scaled, measured):
    """The allowed configuration not yet measured closest to `point` (L1, the lowest index on a tie)."""
    best, best_distance = None, None
    for index, candidate in enumerate(scaled):
        if index in measured:
            continue
        distance = sum(abs(a - b) for a, b in zip(point, candidate))
        if best is None or distance < best_distance:
            best, best_distance = index, distance
    return best


# Of a budget, the share (1/LOCAL_SHARE, rounded up) spent next to the fastest so far.
LOCAL_SHARE = 4


def refines_now(evaluations, budget, startup):
    """Whether the proposal after `evaluations` results is a step next to the fastest so far."""
    if budget is not None:
        return evaluations >= budget - -(-budget // LOCAL_SHARE)
    return evaluations >= startup and (evaluations - startup + 1) % LOCAL_SHARE == 0


def model_values(history):
    """What the model sees: log(median), and a failure as log(twice the slowest that passed)."""
    passed = [ms for _, ms in history if ms is not None]
    failed = math.log(2 * max(passed)) if passed else 0.0
    return [(index, math.log(ms) if ms is not None else failed) for index, ms in history]


def sampler_for(strategy, seed, startup):
    import optuna

    if strategy == "gp":
        return optuna.samplers.GPSampler(seed=seed, n_startup_trials=startup)
    return optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup, multivariate=True)


def propose(space, history, seed, budget, strategy="gp", pending=()):
    """The index of the next configuration to measure, or None when all are measured or pending.
    history: [(index, median_ms or None)], in any order."""
    import optuna

    measured = {index for index, _ in history} | set(pending)
    if len(measured) >= len(space["allowed"]):
        return None
    startup = startup_trials(budget, len(space["allowed"]))
    passed = [(ms, index) for index, ms in history if ms is not None]
    if passed and refines_now(len(history), budget, startup):
        scaled = positions(space)
        return nearest_unmeasured(scaled[min(passed)[1]], scaled, measured)
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    names = [p["name"] for p in space["parameters"]]
    distributions = {p["name"]: optuna.distributions.IntDistribution(0, len(p["values"]) - 1)
                     for p in space["parameters"]}
    sampler = sampler_for(strategy, (seed * 1_000_003 + len(history)) % 2**32, startup)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    for index, value in sorted(model_values(history)):
        config = space["allowed"][index]
        params = {p["name"]: p["values"].index(v) for p, v in zip(space["parameters"], config)}
        study.add_trial(optuna.trial.create_trial(params=params, distributions=distributions, value=value))
    trial = study.ask(distributions)
    point = [trial.params[n] / max(1, len(p["values"]) - 1) for n, p in zip(names, space["parameters"])]
    return nearest_unmeasured(point, positions(space), measured)


def upcoming(space, history, seed, budget, strategy, count):
    """What propose() will answer next whatever the times measured meanwhile, the next proposal
    first, at most `count`: the rest of the random start. A startup proposal is drawn from the
    seed and the number of configurations measured, never from their times, so kopt can build
    these ahead while the GPU measures; the model's and the refinement's proposals wait for the
    times, and none is listed."""
    startup = startup_trials(budget, len(space["allowed"]))
    simulated = list(history)
    ahead = []
    while len(ahead) < count and len(simulated) < startup and (budget is None or len(simulated) < budget):
        if refines_now(len(simulated), budget, startup):
            break
        index = propose(space, simulated, seed, budget, strategy)
        if index is None:
            break
        ahead.append(index)
        simulated.append((index, None))
    return ahead


def check_space(space):
    parameters = space["parameters"]
    for config in space["allowed"]:
        if len(config) != len(parameters) or any(v not in p["values"] for v, p in zip(config, parameters)):
            raise ValueError(f"the allowed configuration {config} does not fit the parameters")


def reply(text):
    os.write(0, (text + "\n").encode())


def main():
    warnings.simplefilter("ignore")  # Optuna's multivariate TPE is marked experimental
    space = json.loads(sys.stdin.readline())
    strategy = space.get("strategy")
    if strategy not in PACKAGES:
        reply(f"error: no model-based strategy is called {strategy!r}: a bug in kopt")
        return 1
    missing = [name for name in PACKAGES[strategy] if importlib.util.find_spec(name) is None]
    if missing:
        reply(f"error: the {strategy} strategy needs {' and '.join(missing)} in the Python kopt runs "
              f"($KOPT_PYTHON or python3): run scripts/setup.sh, or pip install {pinned()}")
        return 1
    try:
        check_space(space)
    except (KeyError, TypeError, ValueError) as problem:
        reply(f"error: {problem}")
        return 1
    reply("ready")
    for line in sys.stdin:
        asked = json.loads(line)
        history = [(int(index), ms) for index, ms in asked["measured"]]
        if "upcoming" in asked:
            reply(json.dumps({"upcoming": upcoming(space, history, int(space["seed"]), space.get("budget"), strategy,
                                                   int(asked["upcoming"]))}))
            continue
        pending = [int(index) for index in asked.get("pending", [])]
        reply(json.dumps({"next": propose(space, history, int(space["seed"]), space.get("budget"), strategy,
                                          pending)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
