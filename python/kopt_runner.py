#!/usr/bin/env python3
"""kopt's Python runner: the process in which Python references (and Triton kernels) run.

kopt starts it; users never call it. Commands:
  check-reference MODULE.py        parse the module (no import, no torch) and check that it
                                   defines reference(); exit 2 with the problem otherwise
  reference REQUEST.json RESULT.json
                                   run reference(**kwargs) on every seed's data and write its
                                   outputs; optionally time it with libkopt_timing

Data crosses as files (see harness/python_reference.h): REQUEST names the module, the
parameters in the kernel's order, one folder per seed holding <name>.bin for every buffer
(inputs and inout contents, poison for outputs), and the timing options. The runner writes
<name>.out.bin for every output and inout buffer, and RESULT with the module's tolerances,
torch's version and TF32 settings, the timing document and the overhead of this process.

Exit status: 0 done; 2 the reference module or its call is at fault (first line of stderr
names the problem, a traceback may follow); 1 anything else.
"""

import ast
import ctypes
import importlib.util
import inspect
import json
import os
import sys
import time
import traceback

DTYPES = {
    "float32": "float32", "float64": "float64", "float16": "float16", "bfloat16": "bfloat16",
    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "bool": "bool",
}


class ReferenceProblem(Exception):
    """The user's module is at fault; the message is the one-line headline."""

    def __init__(self, headline, detail=""):
        super().__init__(headline)
        self.headline = headline
        self.detail = detail


def exception_detail(error):
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


def describe_exception(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


# ------------------------------------------------------------------------------ check-reference

def check_reference(path):
    if not os.path.isfile(path):
        raise ReferenceProblem(f"reference file {path} does not exist: check the --ref path")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        raise ReferenceProblem(f"the reference {path} does not parse: line {e.lineno}: {e.msg}")
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "reference":
            return
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "reference" for t in node.targets):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name) == "reference" for a in node.names):
            return
    raise ReferenceProblem(
        f"the reference {path} defines no reference(): add def reference(**kwargs) that writes the expected "
        "values into the output tensors (named like the kernel's parameters)")


# ------------------------------------------------------------------------------ reference

def import_torch():
    try:
        import torch
    except ImportError as e:
        raise ReferenceProblem(
            f"torch is not installed for {sys.executable} ({e}): install it (pip install torch) or point "
            "KOPT_PYTHON at a Python that has it")
    return torch


def load_module(path):
    """Imports a module that check_reference() has accepted."""
    spec = importlib.util.spec_from_file_location(f"kopt_reference_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise ReferenceProblem(f"importing the reference {path} failed: {describe_exception(e)}", exception_detail(e))
    reference = getattr(module, "reference", None)
    if not callable(reference):
        raise ReferenceProblem(f"the reference {path}: reference is not a function")
    return module, reference


def check_call_shape(path, reference, parameters):
    """A reference needing a parameter the kernel lacks would raise TypeError on every call;
    say which names differ instead."""
    names = [p["name"] for p in parameters]
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
        raise ReferenceProblem(
            f"reference() in {path} does not fit the kernel's parameters ({', '.join(names)}): "
            + ("; ".join(parts) if parts else "the call cannot be bound"))


def tensor_from_file(torch, path, dtype, device):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if not data:
        return torch.empty(0, dtype=getattr(torch, DTYPES[dtype]), device=device)
    return torch.frombuffer(data, dtype=torch.uint8).view(getattr(torch, DTYPES[dtype])).to(device)


def tensor_bytes(torch, tensor):
    host = tensor.detach().contiguous().cpu()
    return ctypes.string_at(host.data_ptr(), host.numel() * host.element_size()) if host.numel() else b""


def load_seed(torch, parameters, folder, device):
    kwargs = {}
    for p in parameters:
        if p["kind"] == "buffer":
            kwargs[p["name"]] = tensor_from_file(torch, os.path.join(folder, p["name"] + ".bin"), p["dtype"], device)
        else:
            kwargs[p["name"]] = p["value"]
    return kwargs


def outputs_of(parameters):
    return [p for p in parameters if p["kind"] == "buffer" and p["role"] != "in"]


def call_reference(path, reference, kwargs):
    try:
        return reference(**kwargs)
    except Exception as e:
        raise ReferenceProblem(f"the reference {path} raised {describe_exception(e)}", exception_detail(e))


def run_seed(torch, path, reference, parameters, folder, device, overhead):
    started = time.perf_counter()
    kwargs = load_seed(torch, parameters, folder, device)
    outputs = outputs_of(parameters)
    before = {p["name"]: kwargs[p["name"]].clone() for p in outputs}
    if device == "cuda":
        torch.cuda.synchronize()
    loaded = time.perf_counter()
    returned = call_reference(path, reference, kwargs)
    if device == "cuda":
        torch.cuda.synchronize()
    called = time.perf_counter()
    changed = any(not torch.equal(before[p["name"]].view(torch.uint8), kwargs[p["name"]].view(torch.uint8)) for p in outputs)
    if outputs and not changed:
        how = "it returned a value instead: " if returned is not None else ""
        raise ReferenceProblem(
            f"the reference {path} wrote none of its outputs ({', '.join(p['name'] for p in outputs)}); {how}"
            "reference() must write into the output tensors in place, e.g. output.copy_(...)")
    for p in outputs:
        with open(os.path.join(folder, p["name"] + ".out.bin"), "wb") as f:
            f.write(tensor_bytes(torch, kwargs[p["name"]]))
    written = time.perf_counter()
    overhead["exchange_s"] += (loaded - started) + (written - called)
    overhead["reference_calls_s"] += called - loaded


def time_reference(torch, path, reference, parameters, folder, device, options, library_path):
    if device != "cuda":
        raise RuntimeError("timing needs the GPU")
    try:
        library = ctypes.CDLL(library_path)
    except OSError as e:
        raise RuntimeError(f"cannot load kopt's timing library {library_path}: {e}")
    callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
    library.kopt_timing_sample.argtypes = [callback, callback, ctypes.c_void_p, ctypes.c_char_p,
                                           ctypes.POINTER(ctypes.c_void_p)]
    library.kopt_timing_sample.restype = ctypes.c_int
    library.kopt_timing_free.argtypes = [ctypes.c_void_p]
    kwargs = load_seed(torch, parameters, folder, device)
    # inout tensors get their seeded contents back before every sample, as in the harness.
    saved = {p["name"]: kwargs[p["name"]].clone() for p in parameters if p["kind"] == "buffer" and p["role"] == "inout"}
    failure = []

    def guarded(action):
        def run(_context):
            try:
                action()
                return 0
            except Exception as e:  # handed back after the timing stops
                failure.append(e)
                return 1
        return callback(run)

    def restore():
        for name, contents in saved.items():
            kwargs[name].copy_(contents)

    call = guarded(lambda: reference(**kwargs))
    before_each = guarded(restore) if saved else callback(0)
    out = ctypes.c_void_p()
    status = library.kopt_timing_sample(call, before_each, None, json.dumps(options).encode(), ctypes.byref(out))
    text = ctypes.string_at(out.value).decode() if out.value else ""
    library.kopt_timing_free(out)
    if failure:
        e = failure[0]
        raise ReferenceProblem(f"the reference {path} raised {describe_exception(e)} while being timed",
                               exception_detail(e))
    if status != 0:
        raise RuntimeError(f"timing the reference failed: {text}")
    return json.loads(text)


def torch_facts(torch):
    facts = {"version": torch.__version__, "cuda": torch.version.cuda or "none",
             "float32_matmul_precision": torch.get_float32_matmul_precision(),
             "tf32_matmul": bool(torch.backends.cuda.matmul.allow_tf32),
             "tf32_cudnn": bool(torch.backends.cudnn.allow_tf32)}
    return facts


def number_attribute(module, name):
    value = getattr(module, name, None)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def run_reference(request_path, result_path):
    started = time.perf_counter()
    with open(request_path, encoding="utf-8") as f:
        request = json.load(f)
    path, device, parameters = request["module"], request["device"], request["parameters"]
    check_reference(path)  # cheap; before the seconds torch takes to import
    torch = import_torch()
    if device == "cuda" and not torch.cuda.is_available():
        raise ReferenceProblem(f"torch {torch.__version__} in {sys.executable} cannot use the GPU "
                               "(torch.cuda.is_available() is False): install a CUDA build of torch")
    if device == "cuda":
        torch.zeros(1, device="cuda")  # create the context now, not inside the first measurement
    module, reference = load_module(path)
    check_call_shape(path, reference, parameters)
    overhead = {"startup_s": time.perf_counter() - started, "exchange_s": 0.0, "reference_calls_s": 0.0}
    for seed in request["seeds"]:
        run_seed(torch, path, reference, parameters, seed["dir"], device, overhead)
    timing = None
    if request.get("timing"):
        options = request["timing"]
        folder = next(s["dir"] for s in request["seeds"] if s["seed"] == options["seed"])
        timing = time_reference(torch, path, reference, parameters, folder, device, options, request["timing_library"])
    overhead["total_s"] = time.perf_counter() - started
    result = {"schema": "kopt.reference_result/v1", "atol": number_attribute(module, "atol"),
              "rtol": number_attribute(module, "rtol"), "torch": torch_facts(torch), "timing": timing,
              "overhead": overhead}
    temporary = result_path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(temporary, result_path)


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "check-reference":
            check_reference(argv[1])
        elif len(argv) == 3 and argv[0] == "reference":
            run_reference(argv[1], argv[2])
        else:
            print("usage: kopt_runner.py check-reference MODULE | reference REQUEST RESULT", file=sys.stderr)
            return 1
    except ReferenceProblem as problem:
        print(problem.headline, file=sys.stderr)
        if problem.detail:
            print(problem.detail.rstrip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
