"""`kopt_runner.py triton JOB RESULT`: the kernel's measuring process for a Triton module. The
protocol is not here: kopt's harness library runs it (libkopt_harness_abi's
kopt_run_kernel_job, the same C++ protocol CUDA kernels run under). This adapter only makes
torch tensors over the buffers kopt allocated, in the shapes and strides of the problem's
setup(), and calls run_kernel(**tensors and scalars) when the protocol asks for a call. The
result is written by the harness library, which then ends the process, so nothing the module
patches in Python can reach it.

A fault of the module's contract (no run_kernel, a setup() of its own that cannot run) is a
UserCodeProblem (exit 2); what run_kernel does wrong is the protocol's verdict."""

import inspect
import os
import time

from . import gate_clock, modules, torch_support, write_sandbox
from .harness_abi import HarnessAbi
from . import documents
from .precision_watch import PrecisionWatch
from .problems import describe_exception, exception_detail
from .triton_contract import TritonModule, dimension_value
from .triton_facts import LaunchedKernels, LaunchWatcher


def failure_of(error, path):
    text = str(error)
    if "CUDA error" in text or "illegal" in text:
        return {"status": "crashed", "reason": f"the kernel failed on the device: {describe_exception(error)}",
                "detail": exception_detail(error)}
    return {"status": "failed", "reason": f"run_kernel() in {path} raised {describe_exception(error)}",
            "detail": exception_detail(error)}


class TritonVersion:
    """run_kernel() of the module, bound to tensors over kopt's buffers."""

    def __init__(self, job, torch, triton, device, started):
        self.job, self.torch, self.triton, self.device, self.started = job, torch, triton, device, started
        self.problem = job["triton_problem"]
        self.path = job["kernel_source"]
        # The harness library first: what is loaded now is the baseline of the library check.
        self.abi = HarnessAbi(job["harness_abi_library"])
        own_setup = "setup" in modules.defined_names(self.path, "Triton kernel", "kernel")
        self.interpreted = os.environ.get("TRITON_INTERPRET") == "1"
        # Before the module is imported: it may launch at import, from any module it imports.
        self.launched = None if self.interpreted else LaunchedKernels()
        self.precision = PrecisionWatch(torch)
        self.precision.hook()
        self.kernel = TritonModule(self.path, needs_setup=own_setup)
        self.precision.look()
        self.watcher = None if self.interpreted else LaunchWatcher(triton, self.kernel.module)
        self.kernel_facts = []
        self.kwargs = None
        self.calls = 0
        self.sandbox = None
        self.startup_s = time.perf_counter() - started

    def declared_problem(self):
        """What the module's own setup() returns, when the problem is the reference's: kopt
        fails the run if it is another problem. None when there is nothing to compare."""
        if self.problem["owner"] == "kernel" or self.kernel.setup is None:
            return None
        dims = {d["name"]: dimension_value(d["value"]) for d in self.job["dims"]}
        self.kernel.check_dimensions(dims)
        inputs, outputs, inout = self.kernel.prepare(self.torch, dims, self.job["seed"])
        tensors, scalars = [], {}
        for name, value in inputs.items():
            if isinstance(value, self.torch.Tensor):
                dtype = str(value.dtype).replace("torch.", "")
                role = "inout" if name in inout else "out" if name in outputs else "in"
                tensors.append({"name": name, "dtype": dtype, "shape": list(value.shape), "role": role})
            else:
                scalars[name] = value
        return {"tensors": tensors, "scalars": scalars}

    def bind(self, buffers):
        by_name = {b["name"]: b for b in buffers}
        kwargs = {}
        tensors = {t["name"]: t for t in self.problem["tensors"]}
        for name in self.problem["order"]:
            if name in tensors:
                t = tensors[name]
                raw = torch_support.tensor_over(self.torch, by_name[name]["address"], by_name[name]["bytes"], self.device)
                typed = raw.view(torch_support.dtype_named(self.torch, t["dtype"]))
                kwargs[name] = typed.as_strided(t["shape"], t["strides"])
            else:
                kwargs[name] = self.problem["scalars"][name]
        self.kwargs = kwargs

    def call(self):
        """One run_kernel() call: None, or the failure (status, reason, detail)."""
        try:
            if self.watcher and self.calls == 0:
                self.watcher.clear()
            self.kernel.run_kernel(**self.kwargs)
            self.precision.look()  # after the call's launches: not in its time on the GPU
            if self.watcher and self.calls == 0:
                self.kernel_facts = self.watcher.facts()
                self.watcher.stop()  # what the first call compiled is what the others launch
            self.calls += 1
            return None
        except Exception as e:  # the protocol's verdict, with the traceback
            return failure_of(e, self.path)

    def facts(self):
        return documents.check({"backend": "triton", "device": self.device,
                "triton": {"version": self.triton.__version__, "interpreted": self.interpreted,
                           "cache_dir": os.environ.get("TRITON_CACHE_DIR"), "kernels": self.kernel_facts,
                           "launched_kernels": sorted(self.launched.names) if self.launched else []},
                "signature": f"run_kernel{inspect.signature(self.kernel.run_kernel)}",
                "dims": {d["name"]: dimension_value(d["value"]) for d in self.job["dims"]},
                "sandbox": self.sandbox["description"] if self.sandbox else None,
                "python_runner": {"torch": torch_support.torch_facts(self.torch, self.precision),
                                  "overhead_s": {"startup_s": self.startup_s,
                                                 "total_s": time.perf_counter() - self.started,
                                                 **gate_clock.facts()}}}, "triton_runner_facts")


def run(job_path, result_path):
    started = time.perf_counter()
    job = documents.read(job_path, "harness_job")
    # Before torch, Triton or the module is imported (so before any thread starts); under ncu
    # too (profile mode), with ncu's lock files.
    sandbox = write_sandbox.sandbox_measuring_process(write_sandbox.writable_folders(job, result_path), result_path,
                                                      profiled=job["kind"] == "profile")
    modules.check_triton_kernel(job["kernel_source"], job["reference_source"] or None)
    torch = torch_support.import_torch()
    triton = torch_support.import_triton()
    device = "cpu" if job["host_only"] else "cuda"
    if device == "cuda":
        torch_support.require_gpu(torch)
    version = TritonVersion(job, torch, triton, device, started)
    version.sandbox = sandbox
    declared = version.declared_problem()
    version.abi.run_kernel_job(job, declared, result_path, version.bind, version.call, version.facts)
    raise RuntimeError("kopt's harness library returned after running the job")  # it ends the process itself
