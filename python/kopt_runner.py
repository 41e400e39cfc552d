#!/usr/bin/env python3
"""kopt's Python runner: the process in which Python references and Triton kernels run.

kopt starts it; users never call it. Commands:
  check-reference MODULE.py      parse the module (no import, no torch) and check that it defines
                                 reference(); exit 2 with the problem otherwise
  check-triton MODULE.py [REF.py] the same for a Triton kernel's run_kernel() and setup() (which
                                 a reference with a setup() of its own makes optional); prints
                                 whose setup() the problem is ("reference" or "kernel")
  triton-problem JOB RESULT      a Triton kernel's problem: setup() for every validation seed, in a
                                 process where the kernel never runs (kopt_runtime/triton_problem.py)
  triton JOB RESULT              the kernel's measuring process: kopt's protocol over run_kernel()
                                 (kopt_runtime/triton_job.py)
  reference REQUEST RESULT       a Python reference, for a CUDA kernel or a Triton module
                                 (kopt_runtime/reference_job.py)
  --gated [--writes DIR]... MODULE...
                                 start now, run later: restrict writes to the DIRs (as the
                                 command would, before any thread starts), import the trusted
                                 MODULEs (torch, triton) while kopt does other work, say "ready"
                                 back on standard input (a socket), then read one line from it,
                                 a JSON array of one of the commands above, and run it; leave at
                                 once on end-of-file (kopt no longer needs this process). The
                                 line ["context"] before the command asks for the CUDA context
                                 now (kopt holds the GPU's lock for it): the answer, on the same
                                 socket, is "context made" or "context not made: WHY"

Exit status: 0 done (a failing kernel is a result, not an exit status); 2 the user's module is
at fault (first line of stderr names the problem, a traceback may follow); 1 anything else."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kopt_runtime import modules  # noqa: E402
from kopt_runtime.problems import USER_CODE_EXIT, UserCodeProblem  # noqa: E402

USAGE = ("usage: kopt_runner.py check-reference MODULE | check-triton MODULE [REFERENCE] | reference REQUEST RESULT | "
         "triton-problem JOB RESULT | triton JOB RESULT")


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "check-reference":
            modules.check_reference(argv[1])
        elif len(argv) in (2, 3) and argv[0] == "check-triton":
            print(modules.check_triton_kernel(argv[1], argv[2] if len(argv) == 3 else None))  # whose problem
        elif len(argv) == 3 and argv[0] == "reference":
            from kopt_runtime import reference_job
            reference_job.run(argv[1], argv[2])
        elif len(argv) == 3 and argv[0] == "triton":
            from kopt_runtime import triton_job
            triton_job.run(argv[1], argv[2])
        elif len(argv) == 3 and argv[0] == "triton-problem":
            from kopt_runtime import triton_problem
            triton_problem.run(argv[1], argv[2])
        else:
            print(USAGE, file=sys.stderr)
            return 1
    except UserCodeProblem as problem:
        print(problem.headline, file=sys.stderr)
        if problem.detail:
            print(problem.detail.rstrip(), file=sys.stderr)
        return USER_CODE_EXIT
    return 0


def gated(args):
    """Restricts writes where asked, imports the trusted modules asked for (nothing of the
    user's), then waits for kopt's go line. Importing torch or Triton touches no GPU: CUDA
    starts at its first use. The sandbox comes first because torch starts a thread as it loads,
    and a thread started before the sandbox would be outside it."""
    import importlib
    import json
    writes, preload = [], []
    while args:
        if args[0] == "--writes" and len(args) >= 2:
            writes.append(args[1])
            args = args[2:]
        else:
            preload.append(args[0])
            args = args[1:]
    if writes:
        from kopt_runtime import write_sandbox
        # The first folder is the result's (kopt names it first): the private temporary folder
        # is made in it, as the job's own sandbox will make it.
        write_sandbox.sandbox_measuring_process(writes, os.path.join(writes[0], "result.json"))
    import time
    from kopt_runtime import gate_clock
    started = time.perf_counter()
    for name in preload:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # the command itself will say so, in its own words
    imported = time.perf_counter()
    say_at_gate("ready")
    context_s = 0.0
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        argv = json.loads(line)
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            print("kopt_runner.py --gated: the go line is not a JSON array of strings", file=sys.stderr)
            return 1
        if argv != ["context"]:
            break
        asked = time.perf_counter()
        say_at_gate(make_gpu_context())
        context_s += time.perf_counter() - asked
        gate_clock.context_ahead_s = context_s
    gate_clock.preload_s = imported - started
    gate_clock.gate_wait_s = time.perf_counter() - imported - context_s
    return main(argv)


def say_at_gate(text):
    """A line back to kopt on standard input, the socket kopt gated this process with (a
    standard input that is no socket, a terminal say, hears nothing)."""
    try:
        os.write(0, (text + "\n").encode())
    except OSError:
        pass


def make_gpu_context():
    """torch's CUDA context on the process's GPU, made while kopt holds the GPU's lock for it
    (so never inside anyone's timing); the reference then starts with it made. Nothing of the
    user's runs here."""
    try:
        import torch
        if not torch.cuda.is_available():
            return "context not made: torch cannot use the GPU here"
        torch.zeros(1, device="cuda")
        torch.cuda.synchronize()
    except Exception as e:  # the reference's own start says what is wrong, in its words
        return f"context not made: {type(e).__name__}: {e}".replace("\n", " ")
    return "context made"


def leave(status):
    """Ends the process once its files are written and closed, without Python's shutdown: with
    torch loaded and a CUDA context made, that shutdown takes tenths of a second that kopt
    would wait for on every run, and runs nothing kopt needs."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--gated":
        leave(gated(sys.argv[2:]))
    leave(main(sys.argv[1:]))
