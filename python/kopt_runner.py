#!/usr/bin/env python3
"""kopt's Python runner: the process in which Python references and Triton kernels run.

kopt starts it; users never call it. Commands:
  check-reference MODULE.py      parse the module (no import, no torch) and check that it defines
                                 reference(); exit 2 with the problem otherwise
  check-triton MODULE.py         the same for a Triton kernel's setup() and run_kernel()
  reference REQUEST RESULT       a Python reference for a CUDA kernel (kopt_runtime/reference_job.py)
  triton JOB RESULT              validate and time a Triton kernel (kopt_runtime/triton_job.py)
  triton-reference JOB RESULT    a Triton kernel's reference, in a process of its own
                                 (kopt_runtime/triton_reference_job.py)

Exit status: 0 done (a failing kernel is a result, not an exit status); 2 the user's module is
at fault (first line of stderr names the problem, a traceback may follow); 1 anything else."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kopt_runtime import modules  # noqa: E402
from kopt_runtime.problems import USER_CODE_EXIT, UserCodeProblem  # noqa: E402

USAGE = ("usage: kopt_runner.py check-reference MODULE | check-triton MODULE | reference REQUEST RESULT | "
         "triton JOB RESULT | triton-reference JOB RESULT")


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "check-reference":
            modules.check_reference(argv[1])
        elif len(argv) == 2 and argv[0] == "check-triton":
            modules.check_triton_kernel(argv[1])
        elif len(argv) == 3 and argv[0] == "reference":
            from kopt_runtime import reference_job
            reference_job.run(argv[1], argv[2])
        elif len(argv) == 3 and argv[0] == "triton":
            from kopt_runtime import triton_job
            triton_job.run(argv[1], argv[2])
        elif len(argv) == 3 and argv[0] == "triton-reference":
            from kopt_runtime import triton_reference_job
            triton_reference_job.run(argv[1], argv[2])
        else:
            print(USAGE, file=sys.stderr)
            return 1
    except UserCodeProblem as problem:
        print(problem.headline, file=sys.stderr)
        if problem.detail:
            print(problem.detail.rstrip(), file=sys.stderr)
        return USER_CODE_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
