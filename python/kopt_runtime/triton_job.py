"""`kopt_runner.py triton JOB RESULT`: the kernel's measuring process for a Triton kernel,
doing what `kopt harness` does for a CUDA one, by the same rules: the kernel runs on guarded
copies of setup()'s tensors (outputs poisoned) for several seeds and once more on fresh inputs
after timing; guards and inputs are checked here; it is timed by the harness's engine. No
reference is loaded in this interpreter: the inputs and the kernel's outputs of every seed go
to the evidence folder kopt gave (evidence.py), the reference runs in a process of its own
(triton_reference_job.py), and kopt compares. JOB is `kopt bench`'s job file; RESULT has the
shape of a CUDA kernel's result plus a "triton" object (what Triton compiled and launched).

A fault of the kernel is a result ("failed" / "crashed"), exit 0; a fault of the module's
contract is a UserCodeProblem (exit 2)."""

import inspect
import os
import time

from . import evidence, modules, torch_support
from .guarded_tensors import GuardedSet
from .harness_abi import HarnessAbi, JudgedFailure, TimedCallFailed
from .json_files import read_json, write_json_atomically
from .problems import UserCodeProblem, describe_exception, exception_detail
from .triton_contract import TritonModule, dimension_value
from .triton_facts import LaunchWatcher

AFTER_TIMING_SEED_OFFSET = 1000003  # the harness's (kernel_run.cpp): fresh inputs after timing


class KernelFailure(Exception):
    def __init__(self, status, reason, detail=""):
        super().__init__(reason)
        self.status, self.reason, self.detail = status, reason, detail


class TritonBench:
    def __init__(self, job, torch, triton, device):
        self.job, self.torch, self.triton, self.device = job, torch, triton, device
        self.path = job["kernel_source"]
        self.kernel = TritonModule(self.path)
        self.dims = {d["name"]: dimension_value(d["value"]) for d in job["dims"]}
        self.kernel.check_dimensions(self.dims)
        self.abi = HarnessAbi(job["harness_abi_library"])
        self.conventions = self.abi.conventions()
        self.interpreted = os.environ.get("TRITON_INTERPRET") == "1"
        self.watcher = None if self.interpreted else LaunchWatcher(triton, self.kernel.module)
        self.evidence_dir = job["evidence_dir"]
        self.evidence = []        # the keys of the inputs the kernel ran on, in order
        self.kernel_facts = []
        self.timing_state = None  # the first seed's (kernel, inout contents)

    # ------------------------------------------------------------------ running the user's code

    def synchronize(self, who):
        if self.device != "cuda":
            return
        try:
            self.torch.cuda.synchronize()
        except Exception as e:
            raise KernelFailure("crashed", f"the {who} failed on the device: {describe_exception(e)}", exception_detail(e))

    def run_kernel(self, version):
        if self.watcher:
            self.watcher.clear()
        try:
            self.kernel.run_kernel(**version.kwargs)
        except Exception as e:
            if "CUDA error" in str(e) or "illegal" in str(e):
                raise KernelFailure("crashed", f"the kernel failed on the device: {describe_exception(e)}",
                                    exception_detail(e))
            raise KernelFailure("failed", f"run_kernel() in {self.path} raised {describe_exception(e)}",
                                exception_detail(e))
        self.synchronize("kernel")
        if self.watcher:
            self.kernel_facts = self.watcher.facts()

    def check_kernel_buffers(self, version, pristine, outputs):
        for name, copy in version.guarded.items():
            side = copy.damaged_guard()
            if side == "after":
                raise KernelFailure("failed", f"out-of-bounds write: wrote up to {copy.bytes_written_past_end()} bytes "
                                              f"past the end of {name}")
            if side == "before":
                raise KernelFailure("failed", f"out-of-bounds write: wrote before the start of {name}")
        for name, original in pristine.items():
            if name not in outputs and not torch_support.same_bytes(self.torch, version.kwargs[name], original):
                raise KernelFailure("failed", f"the kernel wrote into its input {name} (not among setup()'s outputs)")

    # ------------------------------------------------------------------ one seed

    def check_seed(self, seed, when):
        torch = self.torch
        inputs, outputs, inout = self.kernel.prepare(torch, self.dims, seed)
        self.require_device(inputs)
        kernel = GuardedSet(torch, inputs, outputs, inout, self.conventions)
        # The kernel runs on guarded copies, so setup()'s own tensors stay as they were and are
        # the originals to compare with; only a tensor passed uncopied needs a clone.
        pristine = {n: v if n in kernel.guarded else v.clone()
                    for n, v in inputs.items() if isinstance(v, torch.Tensor)}
        key = {"kind": "seed", "value": seed, "when": when}
        if self.evidence_dir:  # what the call gets: inputs, inout contents, poisoned outputs
            before = {n: kernel.kwargs[n].clone() for n in pristine}
            scalars = {n: v for n, v in inputs.items() if not isinstance(v, torch.Tensor)}
            evidence.write_inputs(torch, self.evidence_dir, key, before, outputs, inout, scalars,
                                  self.conventions["poison"])
        self.run_kernel(kernel)
        self.check_kernel_buffers(kernel, pristine, outputs)
        if self.evidence_dir:
            evidence.write_outputs(torch, self.evidence_dir, key, kernel.kwargs, outputs)
        self.evidence.append(key)
        if self.timing_state is None:
            self.timing_state = (kernel, {n: pristine[n] for n in inout})
            self.outputs, self.inout = outputs, inout
            self.buffer_bytes = sum(v.numel() * v.element_size() for v in pristine.values())

    def require_device(self, inputs):
        if self.device != "cuda":
            return
        for name, value in inputs.items():
            if isinstance(value, self.torch.Tensor) and value.device.type != "cuda":
                raise UserCodeProblem(f"setup() in {self.path} returned {name} on {value.device}: create the tensors "
                                      "on the GPU (device=\"cuda\")")

    # ------------------------------------------------------------------ timing

    def time_kernel(self, result):
        if self.device != "cuda":
            raise RuntimeError("timing needs the GPU")
        kernel, inout_contents = self.timing_state
        options = {k: self.job[k] for k in ("hot", "warmup", "repeat", "min_seconds", "max_seconds",
                                             "target_relative_half_width")}

        def restore():
            for name, contents in inout_contents.items():
                kernel.kwargs[name].copy_(contents)

        # The kernel is judged by the engine: work escaping the measurement fails it.
        judged = dict(options, judge=True, output_bytes=sum(
            kernel.kwargs[n].numel() * kernel.kwargs[n].element_size() for n in self.outputs))
        try:
            result["kernel"] = self.abi.time(lambda: self.kernel.run_kernel(**kernel.kwargs),
                                             restore if inout_contents else None, judged, "kernel")
        except JudgedFailure as verdict:
            raise KernelFailure(verdict.status, verdict.reason)
        except TimedCallFailed as failed:
            raise KernelFailure("crashed", f"the kernel failed while being timed: {describe_exception(failed.error)}",
                                exception_detail(failed.error))
        result["protocol"] = result["kernel"].pop("protocol", result.get("protocol"))
        result["warnings"] = result["kernel"].pop("warnings", [])

    # ------------------------------------------------------------------ the whole run

    def run(self, result):
        job = self.job
        seeds = [job["seed"] + i for i in range(job["validation_seeds"])] + [job["seed"] + AFTER_TIMING_SEED_OFFSET]
        try:
            for seed in seeds[:-1]:
                self.check_seed(seed, "before timing")
            if not job["validation_only"]:
                self.time_kernel(result)
                self.check_seed(seeds[-1], "after timing")
        except KernelFailure as failure:
            result.update(status=failure.status, reason=failure.reason, detail=failure.detail)
            result.pop("kernel", None)
        result["evidence"] = self.evidence
        result["outputs"] = list(getattr(self, "outputs", []))
        result["inout"] = list(getattr(self, "inout", []))
        result["buffer_bytes"] = getattr(self, "buffer_bytes", 0)

    def profile_window(self, result):
        """Warm-up (JIT compilation and autotuning happen here), then exactly `profile_calls`
        run_kernel calls between cudaProfilerStart and cudaProfilerStop; nothing else inside."""
        inputs, outputs, inout = self.kernel.prepare(self.torch, self.dims, self.job["seed"])
        self.require_device(inputs)
        kernel = GuardedSet(self.torch, inputs, outputs, inout, self.conventions)
        runtime = self.torch.cuda.cudart()
        try:
            for _ in range(max(1, self.job["warmup"])):
                self.run_kernel(kernel)
            runtime.cudaProfilerStart()
            for _ in range(self.job["profile_calls"]):
                self.run_kernel(kernel)
            runtime.cudaProfilerStop()
        except KernelFailure as failure:
            result.update(status=failure.status, reason=failure.reason, detail=failure.detail)
        result.update(profile_mode=True, profile_calls=self.job["profile_calls"],
                      correctness={"checked": False, "passed": None})

    def facts(self):
        return {"version": self.triton.__version__, "interpreted": self.interpreted,
                "cache_dir": os.environ.get("TRITON_CACHE_DIR"), "kernels": self.kernel_facts}


def run(job_path, result_path):
    started = time.perf_counter()
    job = read_json(job_path)
    modules.check_triton_kernel(job["kernel_source"])
    torch = torch_support.import_torch()
    triton = torch_support.import_triton()
    device = torch_support.choose_device(torch)
    bench = TritonBench(job, torch, triton, device)
    result = {"status": "ok", "reason": "", "backend": "triton", "device": device}
    startup_s = time.perf_counter() - started
    if job["profile_mode"]:
        bench.profile_window(result)
    else:
        bench.run(result)
    result["triton"] = bench.facts()
    result["signature"] = f"run_kernel{inspect.signature(bench.kernel.run_kernel)}"
    result["dims"] = bench.dims
    result["python_runner"] = {"torch": torch_support.torch_facts(torch),
                               "overhead_s": {"startup_s": startup_s, "total_s": time.perf_counter() - started}}
    result["setup_takes_seed"] = bench.kernel.takes_seed
    write_json_atomically(result_path, result)
