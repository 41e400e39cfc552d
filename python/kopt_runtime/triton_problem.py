"""`kopt_runner.py triton-problem JOB RESULT`: the problem of a Triton kernel, made where the
kernel never runs. kopt starts this process before the kernel's, with only the module whose
setup() defines the problem imported: the reference's when it has a setup(), else the kernel
module's (DESIGN.md: the problem belongs to the reference side). For every validation seed
in the job, it calls setup(**dims, seed=...) and leaves each tensor's storage in the job's
folder (`seed_<s>/<name>.bin`); RESULT describes the tensors (element type, shape, strides,
role), the scalars, and the values of every input tensor (their range, mean and spread), from
which kopt draws the timed calls' fresh inputs. kopt takes digests of the files before the
kernel's process starts.

A fault of setup() (it raises, returns something else than the contract says, makes shapes
that change with the seed) is a UserCodeProblem (exit 2)."""

import os

from . import modules, torch_support, write_sandbox
from .harness_abi import HarnessAbi
from . import documents
from .problems import UserCodeProblem
from .triton_contract import TritonModule, dimension_value

DISTINCT_LIMIT = 16  # an input with at most this many distinct values is drawn from them


def problem_owner(job):
    """(path, "reference" or "kernel"): whose setup() defines the problem (as kopt found it when
    it checked the modules, else found here the same way)."""
    reference = job["reference_source"]
    owner = job.get("problem_owner") or (
        "reference" if reference and "setup" in modules.defined_names(reference, "reference", "--ref") else "kernel")
    return (reference, "reference") if owner == "reference" else (job["kernel_source"], "kernel")


def describe_tensor(name, tensor, role, known, where):
    if any(stride == 0 and size > 1 for size, stride in zip(tensor.shape, tensor.stride())):
        raise UserCodeProblem(f"{where} returned {name} as an expanded view (a stride of 0): kopt gives every tensor a "
                              f"buffer of its own; return {name}.contiguous()")
    dtype = torch_support.element_type_of(tensor.dtype, known)
    if dtype is None:
        raise UserCodeProblem(f"{where} returned {name} as {tensor.dtype}, which kopt cannot compare: use one of "
                              + ", ".join(sorted(known)))
    return {"name": name, "dtype": dtype, "shape": list(tensor.shape), "strides": list(tensor.stride()),
            "span": torch_support.span_elements(tensor), "role": role}


def value_facts(torch, tensors):
    """What kopt needs to draw inputs like these: range, mean and spread, and the distinct
    values when there are few, over every seed's elements."""
    flat = torch.cat([t.detach().reshape(-1) for t in tensors])
    if flat.numel() == 0:
        return {"count": 0}
    facts = {"count": flat.numel()}
    if flat.dtype == torch.bool:
        flat = flat.to(torch.uint8)
    if flat.is_floating_point():
        finite = flat[torch.isfinite(flat)].double()
        facts["non_finite"] = int(flat.numel() - finite.numel())
        if finite.numel() == 0:
            return facts
        values = finite
    else:
        values = flat
    distinct = torch.unique(values[: 1 << 24])
    if distinct.numel() <= DISTINCT_LIMIT:
        facts["distinct"] = [v.item() for v in distinct.cpu()]
    as_double = values.double()
    facts.update(min=as_double.min().item(), max=as_double.max().item(), mean=as_double.mean().item(),
                 std=as_double.std(unbiased=False).item() if as_double.numel() > 1 else 0.0)
    return facts


def scalar_inputs(inputs, torch, where):
    scalars = {}
    for name, value in inputs.items():
        if isinstance(value, torch.Tensor):
            continue
        if not isinstance(value, (bool, int, float, str)) and value is not None:
            raise UserCodeProblem(f"{where} returned {name} of type {type(value).__name__}: inputs are tensors, "
                                  "numbers, strings or None")
        scalars[name] = value
    return scalars


def run(job_path, result_path):
    job = documents.read(job_path, "harness_job")
    # The kernel module's setup() may run here: writes only where this step needs to, from
    # before torch or the module is imported.
    sandbox = write_sandbox.sandbox_measuring_process(write_sandbox.writable_folders(job, result_path), result_path)
    path, owner = problem_owner(job)
    where = f"setup() in {path}"
    if owner == "kernel":
        modules.check_triton_kernel(path)
    torch = torch_support.import_torch()
    if owner == "kernel":
        torch_support.import_triton()  # the kernel module needs it: say so before importing the module
    device = "cpu" if job["host_only"] else "cuda"
    if device == "cuda":
        torch_support.require_gpu(torch)
    known = HarnessAbi(job["harness_abi_library"]).conventions()["poison"]
    module = TritonModule(path, needs_run_kernel=owner == "kernel")
    dims = {d["name"]: dimension_value(d["value"]) for d in job["dims"]}
    module.check_dimensions(dims)
    seeds = [key["value"] for key in job["validation"]["evidence"]]
    described, scalars, order, kept = None, None, None, {}
    for seed in seeds:
        inputs, outputs, inout = module.prepare(torch, dims, seed)
        tensors = []
        for name, value in inputs.items():
            if not isinstance(value, torch.Tensor):
                continue
            if value.device.type != device:
                wanted = 'the GPU (device="cuda")' if device == "cuda" else "the CPU"
                raise UserCodeProblem(f"{where} returned {name} on {value.device}: create the tensors on {wanted}")
            role = "inout" if name in inout else "out" if name in outputs else "in"
            tensors.append(describe_tensor(name, value, role, known, where))
        if described is None:
            described, scalars, order = tensors, scalar_inputs(inputs, torch, where), list(inputs)
        elif tensors != described:
            raise UserCodeProblem(f"{where} returned other tensors for seed {seed} than for seed {seeds[0]} "
                                  "(names, element types, shapes, strides or roles): only the values may depend "
                                  "on the seed")
        folder = os.path.join(job["validation"]["evidence_dir"], f"seed_{seed}")
        os.makedirs(folder, exist_ok=True)
        for t in tensors:
            with open(os.path.join(folder, t["name"] + ".bin"), "wb") as f:
                torch_support.write_storage(torch, inputs[t["name"]], f)
            if t["role"] != "out":
                kept.setdefault(t["name"], []).append(inputs[t["name"]])
    for t in described:
        t["values"] = value_facts(torch, kept[t["name"]]) if t["role"] != "out" else None
    documents.write(result_path, {"status": "ok", "reason": "", "owner": owner, "module": path,
                                        "takes_seed": module.takes_seed, "order": order, "tensors": described,
                                        "scalars": scalars, "sandbox": sandbox["description"]}, "problem_answer")
