"""`kopt_runner.py reference REQUEST RESULT`: a Python reference, for a CUDA kernel or a Triton
module, started by the reference's measuring process (harness/reference_run.cpp).

For a CUDA kernel's problem on the GPU, REQUEST carries the reference's bench job ("job"), and
each key's inputs are made here, in kopt's buffers, by kopt's harness library
(kopt_run_reference_keys), which also writes the outputs. Otherwise (a Triton module's setup()
tensors, a run without a GPU) data crosses as files (see harness/python_reference.h): REQUEST names the module, the
parameters (a CUDA kernel's in solve()'s order; a Triton module's setup() inputs, each tensor
with its shape and strides), one folder per set of inputs holding <name>.bin for every buffer
(inputs and inout contents: the bytes of the buffer's storage; an output's parameter names
its poison instead, one element's bytes in hex, and the runner fills it), and the timing
options. The runner writes <name>.out.bin for every output and inout buffer (then an empty
`complete` in the folder, once they are all written), and RESULT
with the module's tolerances, torch's version and TF32 settings, the timing document and the
overhead of this process."""

import inspect
import os
import time

from . import gate_clock, modules, torch_support
from .harness_abi import HarnessAbi, TimedCallFailed
from .precision_watch import PrecisionWatch
from . import documents
from .problems import UserCodeProblem, describe_exception, exception_detail


def check_call_shape(path, reference, names):
    """A reference needing a parameter the kernel lacks would raise TypeError on every call;
    say which names differ instead."""
    try:
        signature = inspect.signature(reference)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(**{n: None for n in names})
    except TypeError:
        required = [p.name for p in signature.parameters.values()
                    if p.default is inspect.Parameter.empty
                    and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]
        missing = [n for n in required if n not in names]
        accepts_extra = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())
        extra = [n for n in names if n not in signature.parameters] if not accepts_extra else []
        parts = []
        if missing:
            parts.append(f"it needs {', '.join(missing)}, which the kernel's solve() does not have")
        if extra:
            parts.append(f"it does not accept {', '.join(extra)} (add **_ to ignore them)")
        raise UserCodeProblem(
            f"reference() in {path} does not fit the kernel's parameters ({', '.join(names)}): "
            + ("; ".join(parts) if parts else "the call cannot be bound"))


def load_reference(path):
    module = modules.load_module(path, "reference", "kopt_reference")
    return module, modules.function_of(module, "reference", path, "reference")


def call_reference(path, reference, kwargs):
    try:
        return reference(**kwargs)
    except Exception as e:
        raise UserCodeProblem(f"the reference {path} raised {describe_exception(e)}", exception_detail(e))


def load_seed(torch, parameters, folder, device):
    kwargs = {}
    for p in parameters:
        if p["kind"] == "buffer":
            if p["poison"] is not None:  # an output: it starts as kopt's poison, made here rather than read
                flat = torch_support.poisoned_tensor(torch, p["poison"], p["elements"], p["dtype"], device)
            else:
                flat = torch_support.tensor_from_file(torch, os.path.join(folder, p["name"] + ".bin"), p["dtype"], device)
            # A Triton tensor is its setup() view over the buffer's storage.
            kwargs[p["name"]] = flat.as_strided(p["shape"], p["strides"]) if p["shape"] is not None else flat
        else:
            kwargs[p["name"]] = p["value"]
    return kwargs


def write_output_files(torch, folder, kwargs, names):
    """`<name>.out.bin` in `folder` for each of `names`: the bytes of its buffer's storage."""
    for name in names:
        with open(os.path.join(folder, name + ".out.bin"), "wb") as f:
            torch_support.write_storage(torch, kwargs[name], f)


def inout_buffers(parameters):
    """The buffers whose contents the reference gets back before every timed sample."""
    return [p["name"] for p in parameters if p["kind"] == "buffer" and p["role"] == "inout"]


def outputs_of(parameters):
    return [p for p in parameters if p["kind"] == "buffer" and p["role"] != "in"]


def require_written(path, outputs, written, returned):
    if outputs and not written:
        how = "it returned a value instead: " if returned is not None else ""
        raise UserCodeProblem(
            f"the reference {path} wrote none of its outputs ({', '.join(outputs)}); {how}"
            "reference() must write into the output tensors in place, e.g. output.copy_(...)")


def require_inputs_unchanged(torch, path, parameters, kwargs, before):
    """A reference that changes an input would be judged on other inputs than the kernel."""
    outputs = [p["name"] for p in outputs_of(parameters)]
    for p in parameters:
        if p["kind"] == "buffer" and p["role"] == "in" and not torch_support.same_bytes(
                torch, kwargs[p["name"]], before[p["name"]]):
            raise UserCodeProblem(
                f"the reference {path} wrote into {p['name']}, which is not among the kernel's outputs "
                f"({', '.join(outputs)}): leave it unchanged (or make it an output)")


def call_on(torch, path, reference, parameters, kwargs, device, overhead):
    """reference(**kwargs) once, checked: it wrote some output and left every input as it was."""
    started = time.perf_counter()
    outputs = outputs_of(parameters)
    before = {p["name"]: kwargs[p["name"]].clone() for p in parameters if p["kind"] == "buffer"}
    if device == "cuda":
        torch.cuda.synchronize()
    loaded = time.perf_counter()
    returned = call_reference(path, reference, kwargs)
    if device == "cuda":
        torch.cuda.synchronize()
    called = time.perf_counter()
    written = any(not torch_support.same_bytes(torch, before[p["name"]], kwargs[p["name"]]) for p in outputs)
    require_written(path, [p["name"] for p in outputs], written, returned)
    require_inputs_unchanged(torch, path, parameters, kwargs, before)
    done = time.perf_counter()
    overhead["exchange_s"] += (loaded - started) + (done - called)
    overhead["reference_calls_s"] += called - loaded


def run_seed(torch, path, reference, parameters, folder, device, overhead):
    """One set of inputs from its folder's files, the outputs written back there."""
    started = time.perf_counter()
    kwargs = load_seed(torch, parameters, folder, device)
    overhead["exchange_s"] += time.perf_counter() - started
    call_on(torch, path, reference, parameters, kwargs, device, overhead)
    started = time.perf_counter()
    write_output_files(torch, folder, kwargs, [p["name"] for p in outputs_of(parameters)])
    # The set's outputs are whole: kopt may compare them while the runner goes on (the mark's
    # name is harness/evidence_files.cpp's).
    open(os.path.join(folder, "complete"), "wb").close()
    overhead["exchange_s"] += time.perf_counter() - started


def run_keys(torch, abi, path, reference, parameters, request, overhead, timed_reference):
    """Every key of the reference's job, its inputs made in kopt's buffers by kopt's generator
    (no file of them), the reference called on tensors over those buffers (`timed_reference`
    when timed); kopt writes the outputs. Returns the timing document, or None when the job only
    validates."""
    state = {"kwargs": None, "timing": None}

    def bind(buffers):
        by_name = {b["name"]: b for b in buffers}
        kwargs = {}
        for p in parameters:
            if p["kind"] == "buffer":
                raw = torch_support.tensor_over(torch, by_name[p["name"]]["address"], by_name[p["name"]]["bytes"], "cuda")
                kwargs[p["name"]] = raw.view(torch_support.dtype_named(torch, p["dtype"]))
            else:
                kwargs[p["name"]] = p["value"]
        state["kwargs"] = kwargs

    def each(key):
        if key["kind"] == "timing":
            state["timing"] = time_reference(abi, path, timed_reference, state["kwargs"], inout_buffers(parameters),
                                             request["timing"], overhead)
        else:
            call_on(torch, path, reference, parameters, state["kwargs"], "cuda", overhead)

    abi.run_reference_keys(request["job"], bind, each)
    state["kwargs"] = None  # views of kopt's buffers, which are gone
    return state["timing"]


def time_reference(abi, path, reference, kwargs, inout_names, options, overhead):
    """Times reference(**kwargs); inout tensors get their contents back before every sample,
    as in the harness. Its seconds go to overhead["timing_s"]: kopt reports them as the
    reference's sampling, apart from the runner's own costs."""
    started = time.perf_counter()
    saved = {name: kwargs[name].clone() for name in inout_names}

    def restore():
        for name, contents in saved.items():
            kwargs[name].copy_(contents)

    try:
        return abi.time(lambda: reference(**kwargs), restore if saved else None, options, "reference")
    except TimedCallFailed as failed:
        raise UserCodeProblem(f"the reference {path} raised {describe_exception(failed.error)} while being timed",
                              exception_detail(failed.error))
    finally:
        overhead["timing_s"] = time.perf_counter() - started


def tolerances_of(module):
    return {"atol": modules.number_attribute(module, "atol"), "rtol": modules.number_attribute(module, "rtol")}


def announce_tolerances(path, module):
    """Before any outputs: kopt compares each key's outputs while this process goes on, and
    needs the module's tolerances for that (the result says them again at the end)."""
    if path:
        documents.write(path, tolerances_of(module), "announced_tolerances")


def run(request_path, result_path):
    started = time.perf_counter()
    request = documents.read(request_path, "reference_request")
    path, device, parameters = request["module"], request["device"], request["parameters"]
    modules.check_reference(path)  # cheap; before the seconds torch takes to import
    torch = torch_support.import_torch()
    if device == "cuda":
        torch_support.require_gpu(torch)
    watch = PrecisionWatch(torch)
    watch.hook()
    module, reference = load_reference(path)
    watch.look()
    checked_reference = watch.looking_after(reference)  # not in timed calls: kopt's look is not the reference's time
    check_call_shape(path, reference, [p["name"] for p in parameters])
    announce_tolerances(request.get("tolerances_file"), module)
    overhead = {"startup_s": time.perf_counter() - started, "exchange_s": 0.0, "reference_calls_s": 0.0}
    if request.get("job") is not None:  # a CUDA kernel's problem on the GPU: inputs made here
        timing = run_keys(torch, HarnessAbi(request["harness_abi_library"]), path, checked_reference, parameters,
                          request, overhead, reference)
        finish(result_path, module, torch, watch, timing, overhead, started)
        return
    for seed in request["seeds"]:
        run_seed(torch, path, checked_reference, parameters, seed["dir"], device, overhead)
    timing = None
    if request.get("timing"):
        if device != "cuda":
            raise RuntimeError("timing needs the GPU")
        options = request["timing"]
        folder = next(s["dir"] for s in request["seeds"] if s["seed"] == options["seed"])
        kwargs = load_seed(torch, parameters, folder, device)
        timing = time_reference(HarnessAbi(request["harness_abi_library"]), path, reference, kwargs,
                                inout_buffers(parameters), options, overhead)
    finish(result_path, module, torch, watch, timing, overhead, started)


def finish(result_path, module, torch, watch, timing, overhead, started):
    watch.look()
    overhead["total_s"] = time.perf_counter() - started
    overhead.update(gate_clock.facts())
    result = {"schema": "kopt.reference_result/v2", **tolerances_of(module), "torch": torch_support.torch_facts(torch, watch),
              "timing": timing, "overhead": overhead}
    documents.write(result_path, result, "reference_result")

