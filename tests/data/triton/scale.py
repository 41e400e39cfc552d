"""y = 2 * x in Triton, and deliberately broken versions of it for kopt's tests, chosen by the
KOPT_TEST_VARIANT environment variable (default: correct)."""

import os

import torch
import triton
import triton.language as tl

VARIANT = os.environ.get("KOPT_TEST_VARIANT", "correct")

if VARIANT == "patches_reference":
    # At import, in whatever interpreter loads this module: `2 * x` (the reference's formula)
    # gives zeros, the answer this variant's kernel writes.
    torch.Tensor.__rmul__ = lambda self, other: torch.zeros_like(self)


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, limit, BLOCK: tl.constexpr, MODE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    if MODE == 1:    # accumulates into y: reads the output before writing it
        x = x + tl.load(y_ptr + offsets, mask=offsets < n, other=0.0) * 0.5
    if MODE == 2:    # writes into its input as well
        tl.store(x_ptr + offsets, x + 1.0, mask=offsets < n)
    if MODE == 3:    # produces NaN
        x = x * float("nan")
    if MODE == 4:    # stores far outside any allocation: an illegal address (GPU only)
        tl.store(y_ptr + (offsets.to(tl.int64) + (1 << 40)), x, mask=offsets < n)
    if MODE == 6:    # writes zeros
        x = x * 0.0
    if MODE == 5:    # never returns (GPU only)
        flag = tl.load(x_ptr, volatile=True)
        while flag == flag:
            flag = tl.load(x_ptr, volatile=True)
    tl.store(y_ptr + offsets, 2.0 * x, mask=offsets < limit)


MODES = {"correct": 0, "half": 0, "past_end": 0, "reads_output": 1, "inout": 1, "writes_input": 2, "nan": 3,
         "faults": 4, "hangs": 5, "patches_reference": 6, "seed_blind": 0, "tampers_problem": 6,
         "detaches": 0, "forges_result": 0, "writes_file": 0}


CALLS = [0]


def forge_the_result_and_leave():
    """On its second call, writes the result kopt reads (its path is on this process's command
    line) as a pass on the first seed alone, whose outputs kopt already kept, and ends the
    process before the protocol can go on."""
    import json
    import sys

    CALLS[0] += 1
    if CALLS[0] < 2:
        return
    with open(sys.argv[3], "w") as f:
        json.dump({"status": "ok", "reason": "", "problem_source": "kernel",
                   "evidence": [{"kind": "seed", "value": 0, "when": "before timing"}]}, f)
    os._exit(0)


def zero_the_problems_inputs():
    """The job file kopt gave this process names the folder of setup()'s tensors: zero inputs
    there, whose answer is the zeros this variant writes."""
    import glob
    import json
    import sys

    with open(sys.argv[2], encoding="utf-8") as f:
        folder = json.load(f)["triton_problem"]["dir"]
    for path in glob.glob(os.path.join(folder, "seed_*", "x.bin")):
        with open(path, "r+b") as f:
            size = os.path.getsize(path)
            f.write(bytes(size))


def setup(*, n, seed=0, **_):
    generator = torch.Generator().manual_seed(0 if VARIANT == "seed_blind" else seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.randn(n, generator=generator).to(device)
    if VARIANT == "inout":
        y = torch.randn(n, generator=generator).to(device)
        return {"inputs": {"x": x, "y": y, "n": n}, "outputs": ["y"], "inout": ["y"]}
    return {"inputs": {"x": x, "y": torch.empty_like(x), "n": n}, "outputs": ["y"]}


def run_kernel(*, x, y, n, **_):
    if VARIANT == "raises":
        raise ValueError("the block size does not divide n")
    if VARIANT == "tampers_problem":
        zero_the_problems_inputs()
    if VARIANT == "forges_result":
        forge_the_result_and_leave()
    if VARIANT == "writes_file":  # a file outside its run's folders (kopt's sandbox refuses it)
        with open(os.environ["KOPT_TEST_VICTIM"], "w") as f:
            f.write("the kernel was here\n")
    if VARIANT == "detaches":  # a process of its own session, to act once this one has ended
        import subprocess
        subprocess.Popen(["sleep", "41"], start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    limit = n // 2 if VARIANT == "half" else n + 16 if VARIANT == "past_end" else n
    scale_kernel[(triton.cdiv(limit, 64),)](x, y, n, limit, BLOCK=64, MODE=MODES[VARIANT])
