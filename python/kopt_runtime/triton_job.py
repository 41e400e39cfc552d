"""`kopt_runner.py triton JOB RESULT`: the measuring process for a Triton kernel, doing what
`kopt harness` does for a CUDA one, by the same rules: the kernel runs first on its own
guarded copies of setup()'s tensors (outputs poisoned), the reference on separate copies of
the same inputs; outputs are compared by the harness's own code (libkopt_harness_abi) on
several seeds and once more on fresh inputs after timing; guards and inputs are checked; both
are timed by the harness's engine. JOB is `kopt bench`'s job file; RESULT has the shape of a
CUDA bench result plus a "triton" object (what Triton compiled and launched).

A fault of the kernel is a result ("failed" / "crashed"), exit 0; a fault of the module's
contract or of the reference is a UserCodeProblem (exit 2)."""

import inspect
import os
import time

from . import modules, torch_support
from .guarded_tensors import guarded_copy, poison_pattern
from .harness_abi import HarnessAbi, JudgedFailure, TimedCallFailed
from .json_files import read_json, write_json_atomically
from .problems import UserCodeProblem, describe_exception, exception_detail
from .reference_job import call_reference, load_reference, require_written
from .triton_contract import TritonModule, dimension_value
from .triton_facts import LaunchWatcher

AFTER_TIMING_SEED_OFFSET = 1000003  # the harness's (kernel_run.cpp): fresh inputs after timing


class KernelFailure(Exception):
    def __init__(self, status, reason, detail=""):
        super().__init__(reason)
        self.status, self.reason, self.detail = status, reason, detail


class Version:
    """One set of tensors (kernel's or reference's): guarded copies of setup()'s tensors, the
    outputs poisoned unless they are inout."""

    def __init__(self, torch, inputs, outputs, inout, conventions):
        self.kwargs, self.guarded = {}, {}
        for name, value in inputs.items():
            copy = guarded_copy(torch, value, conventions) if isinstance(value, torch.Tensor) else None
            if copy is not None:
                self.guarded[name] = copy
                self.kwargs[name] = copy.view
            else:
                self.kwargs[name] = value
        for name in outputs:
            pattern = poison_pattern(inputs[name], conventions)
            if name not in inout and name in self.guarded and pattern is not None:
                self.guarded[name].poison(pattern)


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
        self.ref_path = job["reference_source"]
        self.reference_module, self.reference = load_reference(self.ref_path) if self.ref_path else (None, None)
        self.kernel_facts = []
        self.timing_state = None  # the first seed's (kernel, reference, inout contents)

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

    def reference_outputs(self, pristine, inputs, outputs, inout):
        torch = self.torch
        version = Version(torch, {**inputs, **pristine}, outputs, inout, self.conventions)
        before = {name: version.kwargs[name].clone() for name in outputs}
        returned = call_reference(self.ref_path, self.reference, version.kwargs)
        self.synchronize("reference")
        written = any(not torch_support.same_bytes(torch, before[n], version.kwargs[n]) for n in outputs)
        require_written(self.ref_path, outputs, written, returned)
        for name, original in pristine.items():
            if name not in outputs and not torch_support.same_bytes(torch, version.kwargs[name], original):
                raise UserCodeProblem(
                    f"the reference {self.ref_path} wrote into {name}, which is not among the kernel's outputs "
                    f"({', '.join(outputs)}): list it in setup()'s \"outputs\" or leave it unchanged")
        return version

    # ------------------------------------------------------------------ one seed

    def check_seed(self, seed, when):
        torch = self.torch
        inputs, outputs, inout = self.kernel.prepare(torch, self.dims, seed)
        self.require_device(inputs)
        kernel = Version(torch, inputs, outputs, inout, self.conventions)
        # The kernel runs on guarded copies, so setup()'s own tensors stay as they were and are
        # the originals to compare with; only a tensor passed uncopied needs a clone.
        pristine = {n: v if n in kernel.guarded else v.clone()
                    for n, v in inputs.items() if isinstance(v, torch.Tensor)}
        self.run_kernel(kernel)
        self.check_kernel_buffers(kernel, pristine, outputs)
        comparisons, reference = [], None
        if self.reference:
            reference = self.reference_outputs(pristine, inputs, outputs, inout)
            comparisons = [self.compare(name, inputs[name], kernel.kwargs[name], reference.kwargs[name])
                           for name in outputs]
        passed = all(c["passed"] for c in comparisons)
        if self.timing_state is None:
            self.timing_state = (kernel, reference, {n: pristine[n] for n in inout})
            self.outputs, self.inout = outputs, inout
            self.buffer_bytes = sum(v.numel() * v.element_size() for v in pristine.values())
        return {"seed": seed, "when": when, "passed": passed, "outputs": comparisons}

    def require_device(self, inputs):
        if self.device != "cuda":
            return
        for name, value in inputs.items():
            if isinstance(value, self.torch.Tensor) and value.device.type != "cuda":
                raise UserCodeProblem(f"setup() in {self.path} returned {name} on {value.device}: create the tensors "
                                      "on the GPU (device=\"cuda\")")

    def compare(self, name, original, kernel_tensor, reference_tensor):
        known = self.conventions["poison"]
        element_type = torch_support.element_type_of(original.dtype, known)
        if element_type is None:
            raise UserCodeProblem(f"output {name} is {original.dtype}, which kopt cannot compare: use one of "
                                  + ", ".join(known))
        request = {"name": name, "dtype": element_type, "atol": self.job.get("atol"), "rtol": self.job.get("rtol"),
                   "reference_atol": modules.number_attribute(self.reference_module, "atol"),
                   "reference_rtol": modules.number_attribute(self.reference_module, "rtol")}
        return self.abi.compare(request, torch_support.host_bytes(self.torch, kernel_tensor),
                                torch_support.host_bytes(self.torch, reference_tensor))

    # ------------------------------------------------------------------ timing

    def time_both(self, result):
        if self.device != "cuda":
            raise RuntimeError("timing needs the GPU")
        kernel, reference, inout_contents = self.timing_state
        options = {k: self.job[k] for k in ("hot", "warmup", "repeat", "min_seconds", "max_seconds",
                                             "target_relative_half_width")}

        def restorer(version):
            def restore():
                for name, contents in inout_contents.items():
                    version.kwargs[name].copy_(contents)
            return restore if inout_contents else None

        # The kernel is judged by the engine (work escaping the measurement fails it); the
        # reference is trusted.
        judged = dict(options, judge=True, output_bytes=sum(
            kernel.kwargs[n].numel() * kernel.kwargs[n].element_size() for n in self.outputs))
        try:
            result["kernel"] = self.abi.time(lambda: self.kernel.run_kernel(**kernel.kwargs), restorer(kernel),
                                             judged, "kernel")
        except JudgedFailure as verdict:
            raise KernelFailure(verdict.status, verdict.reason)
        except TimedCallFailed as failed:
            raise KernelFailure("crashed", f"the kernel failed while being timed: {describe_exception(failed.error)}",
                                exception_detail(failed.error))
        if reference is not None:
            try:
                result["reference"] = self.abi.time(lambda: self.reference(**reference.kwargs), restorer(reference),
                                                    options, "reference")
            except TimedCallFailed as failed:
                raise UserCodeProblem(f"the reference {self.ref_path} raised {describe_exception(failed.error)} while "
                                      "being timed", exception_detail(failed.error))
        warnings = []
        for who in ("kernel", "reference"):
            if who in result:
                result["protocol"] = result[who].pop("protocol", result.get("protocol"))
                warnings += [w for w in result[who].pop("warnings", []) if w not in warnings]
        result["warnings"] = warnings

    # ------------------------------------------------------------------ the whole run

    def run(self, result):
        job = self.job
        seeds = [job["seed"] + i for i in range(job["validation_seeds"])] + [job["seed"] + AFTER_TIMING_SEED_OFFSET]
        checked = []
        correctness = {"checked": self.reference is not None, "passed": None}
        try:
            for seed in seeds[:-1]:
                checked.append(self.check_seed(seed, "before timing"))
                if not checked[-1]["passed"]:
                    break
            failed = next((s for s in checked if not s["passed"]), None)
            if failed:
                bad = next(o for o in failed["outputs"] if not o["passed"])
                result.update(status="failed", reason=f"validation failed (seed {failed['seed']}): {bad['summary']}"
                                                      f"{self.read_before_write_hint(bad)}")
            elif not job["validation_only"]:
                self.time_both(result)
                checked.append(self.check_seed(seeds[-1], "after timing"))
                if not checked[-1]["passed"]:
                    result.update(status="failed", reason="validation failed on fresh inputs after timing (does the "
                                                          "kernel reuse earlier results?)")
        except KernelFailure as failure:
            result.update(status=failure.status, reason=failure.reason, detail=failure.detail)
            for who in ("kernel", "reference"):
                result.pop(who, None)
        if self.reference is not None:
            correctness["passed"] = result["status"] == "ok" and all(s["passed"] for s in checked)
        first = next((o for s in checked for o in s["outputs"]), None)
        if first:
            correctness.update(atol=first["tolerance"]["atol"], rtol=first["tolerance"]["rtol"])
        correctness["output_tensor_count"] = len(getattr(self, "outputs", []))
        correctness["seeds"] = checked
        result["correctness"] = correctness
        result["buffer_bytes"] = getattr(self, "buffer_bytes", 0)

    def read_before_write_hint(self, comparison):
        name = comparison["name"]
        # A kernel reading its poisoned output gets NaN (the GPU drops the poison's payload; the
        # interpreter on the CPU keeps it, so the result still reads as poison).
        poison_read = any(m["what"] in ("NaN", "left as poison") for m in comparison["first_mismatches"])
        if poison_read and name not in self.inout:
            return (f" (outputs hold NaN poison before each run: if run_kernel reads {name} before writing it, "
                    "list it in setup()'s \"inout\")")
        return ""

    def profile_window(self, result):
        """Warm-up (JIT compilation and autotuning happen here), then exactly `profile_calls`
        run_kernel calls between cudaProfilerStart and cudaProfilerStop; nothing else inside."""
        inputs, outputs, inout = self.kernel.prepare(self.torch, self.dims, self.job["seed"])
        self.require_device(inputs)
        kernel = Version(self.torch, inputs, outputs, inout, self.conventions)
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


def choose_device(torch):
    if torch.cuda.is_available():
        torch_support.require_gpu(torch)
        return "cuda"
    if os.environ.get("TRITON_INTERPRET") == "1":
        return "cpu"  # Triton's interpreter on CPU tensors: checks only, no timing
    torch_support.require_gpu(torch)


def run(job_path, result_path):
    started = time.perf_counter()
    job = read_json(job_path)
    modules.check_triton_kernel(job["kernel_source"])
    if job["reference_source"]:
        modules.check_reference(job["reference_source"])
    torch = torch_support.import_torch()
    triton = torch_support.import_triton()
    device = choose_device(torch)
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
    if not bench.kernel.takes_seed:
        result.setdefault("notes", []).append("setup() takes no seed: every check used the same inputs")
    write_json_atomically(result_path, result)
