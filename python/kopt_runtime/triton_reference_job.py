"""`kopt_runner.py triton-reference JOB RESULT`: the reference's measuring process for a
Triton kernel. kopt starts it after the kernel's process has ended, with a clean environment:
the kernel's module is never imported here, so it cannot patch torch or the reference. For
every key the kernel's process kept, it loads the inputs that process left (evidence.py) into
fresh tensors of the same shapes, poisons the outputs that are not inout, calls
reference(**tensors and scalars), and leaves the outputs in its own evidence folder; kopt
compares. Then it times the reference on the first seed's inputs with the harness's engine.

A fault of the reference (it raises, writes into an input, writes no output) is a
UserCodeProblem (exit 2)."""

import time

from . import evidence, modules, torch_support
from .guarded_tensors import GuardedSet
from .harness_abi import HarnessAbi
from .json_files import read_json, write_json_atomically
from .problems import UserCodeProblem
from .reference_job import call_reference, load_reference, require_written, time_reference


def run_key(torch, job, key, reference, conventions, device):
    """The reference on one key's inputs, in guarded copies with the outputs poisoned unless
    inout (as the kernel got them); its outputs go to this process's evidence folder."""
    path = job["reference_source"]
    loaded, manifest = evidence.read_inputs(torch, job["inputs_dir"], key, device)
    outputs = [t["name"] for t in manifest["tensors"] if t["role"] != "in"]
    inout = [t["name"] for t in manifest["tensors"] if t["role"] == "inout"]
    inputs = [t["name"] for t in manifest["tensors"] if t["role"] == "in"]
    version = GuardedSet(torch, loaded, outputs, inout, conventions)
    kwargs = version.kwargs
    before = {name: kwargs[name].clone() for name in outputs + inputs}
    returned = call_reference(path, reference, kwargs)
    if device == "cuda":
        torch.cuda.synchronize()
    written = any(not torch_support.same_bytes(torch, before[n], kwargs[n]) for n in outputs)
    require_written(path, outputs, written, returned)
    for name in inputs:
        if not torch_support.same_bytes(torch, kwargs[name], before[name]):
            raise UserCodeProblem(
                f"the reference {path} wrote into {name}, which is not among the kernel's outputs "
                f"({', '.join(outputs)}): list it in setup()'s \"outputs\" or leave it unchanged")
    evidence.write_outputs(torch, job["evidence_dir"], key, kwargs, outputs)
    return inout


def run(job_path, result_path):
    started = time.perf_counter()
    job = read_json(job_path)
    path = job["reference_source"]
    modules.check_reference(path)  # cheap; before the seconds torch takes to import
    torch = torch_support.import_torch()
    device = torch_support.choose_device(torch)
    module, reference = load_reference(path)
    abi = HarnessAbi(job["harness_abi_library"])
    conventions = abi.conventions()
    overhead = {"startup_s": time.perf_counter() - started}
    first = None
    for key in job["evidence"]:
        inout = run_key(torch, job, key, reference, conventions, device)
        if first is None and key["kind"] == "seed" and key["value"] == job["seed"]:
            first = (key, inout)
    overhead["reference_calls_s"] = time.perf_counter() - started - overhead["startup_s"]
    timing = None
    if not job["validation_only"] and first is not None:
        if device != "cuda":
            raise RuntimeError("timing needs the GPU")
        loaded, manifest = evidence.read_inputs(torch, job["inputs_dir"], first[0], device)
        outputs = [t["name"] for t in manifest["tensors"] if t["role"] != "in"]
        kwargs = GuardedSet(torch, loaded, outputs, first[1], conventions).kwargs
        timing = time_reference(abi, path, reference, kwargs, first[1], {
            k: job[k] for k in ("hot", "warmup", "repeat", "min_seconds", "max_seconds", "target_relative_half_width")})
    overhead["total_s"] = time.perf_counter() - started
    result = {"status": "ok", "reason": "",
              "reference_tolerance": {"atol": modules.number_attribute(module, "atol"),
                                      "rtol": modules.number_attribute(module, "rtol")},
              "reference_runner": {"torch": torch_support.torch_facts(torch), "overhead_s": overhead}}
    if timing is not None:
        result["reference"] = timing
    write_json_atomically(result_path, result)
