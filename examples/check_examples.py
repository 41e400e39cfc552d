#!/usr/bin/env python3
"""GPU sanity check for kopt's bundled examples (needs torch with CUDA).

Standalone: no kopt involved. For every example it loads <lib-dir>/<stem>.so
with ctypes, allocates flat CUDA tensors for the parameters of solve(), fills
inputs with seeded random data (honouring the value ranges of the kopt
annotations), poisons outputs (NaN for floats, 0x7f7f7f7f for ints), calls
solve(), then runs the torch reference on cloned inputs and separate outputs
and compares. It also checks that the kernel left its inputs alone and did not
write into the guard zones placed around every buffer, and compares
vector_add.so with the native reference vector_add_ref.so.

Usage:
    python3 check_examples.py --lib-dir DIR [--examples-dir DIR] [--only NAME ...]

DIR holds <stem>.so built from each example, e.g.
    nvcc -std=c++17 -O3 -shared -Xcompiler -fPIC \\
         -gencode=arch=compute_90a,code=sm_90a vector_add.cu -o DIR/vector_add.so
(cutlass_gemm.cu also needs --expt-relaxed-constexpr and CUTLASS's include/
and tools/util/include/ directories on the include path).

Prints one line per case, "PASS name" or "FAIL name: reason", and exits 1 if
any case failed.
"""

import argparse
import ctypes
import importlib.util
import os
import sys

import torch

# --------------------------------------------------------------------------------------
# Parameter descriptions.
#   buf(name, dtype, size, role, fill)   role: "in" | "out" | "inout"
#       size: function of the dims dict -> element count
#       fill: ("normal",) | ("range", lo_fn, hi_fn)
#   scal(name, ctype)                    a scalar taken from the dims dict
# --------------------------------------------------------------------------------------


def buf(name, dtype, size, role="in", fill=("normal",)):
    return {"kind": "buf", "name": name, "dtype": dtype, "size": size, "role": role, "fill": fill}


def scal(name, ctype):
    return {"kind": "scalar", "name": name, "ctype": ctype}


F32, BF16, I32 = torch.float32, torch.bfloat16, torch.int32

VECTOR_ADD = [
    buf("A", F32, lambda d: d["N"]),
    buf("B", F32, lambda d: d["N"]),
    buf("C", F32, lambda d: d["N"], "out"),
    scal("N", ctypes.c_int),
]
SOFTMAX = [
    buf("input", F32, lambda d: d["rows"] * d["cols"]),
    buf("output", F32, lambda d: d["rows"] * d["cols"], "out"),
    scal("rows", ctypes.c_int),
    scal("cols", ctypes.c_int),
]
MATMUL = [
    buf("A", F32, lambda d: d["M"] * d["K"]),
    buf("B", F32, lambda d: d["K"] * d["N"]),
    buf("C", F32, lambda d: d["M"] * d["N"], "out"),
    scal("M", ctypes.c_int),
    scal("N", ctypes.c_int),
    scal("K", ctypes.c_int),
]
CUTLASS_GEMM = [
    buf("A", BF16, lambda d: d["M"] * d["K"]),
    buf("B", BF16, lambda d: d["K"] * d["N"]),
    buf("C", BF16, lambda d: d["M"] * d["N"], "out"),
    scal("M", ctypes.c_int),
    scal("N", ctypes.c_int),
    scal("K", ctypes.c_int),
]
AXPY = [
    buf("x", F32, lambda d: d["N"]),
    buf("y", F32, lambda d: d["N"], "inout"),
    scal("alpha", ctypes.c_float),
    scal("N", ctypes.c_int),
]
HISTOGRAM = [
    buf("input", I32, lambda d: d["N"], "in", ("range", lambda d: 0, lambda d: d["num_bins"])),
    buf("histogram", I32, lambda d: d["num_bins"], "out"),
    scal("N", ctypes.c_int),
    scal("num_bins", ctypes.c_int),
]

# (case label, library stem, reference: "<file>.py" or "<stem>.so" (native), params, dims)
CASES = [
    ("vector_add", "vector_add", "vector_add_ref.py", VECTOR_ADD, {"N": 1000003}),
    ("vector_add (native ref)", "vector_add", "vector_add_ref.so", VECTOR_ADD, {"N": 1000003}),
    ("softmax_naive 257x1000", "softmax_naive", "softmax_ref.py", SOFTMAX, {"rows": 257, "cols": 1000}),
    ("softmax_naive 4096x1024", "softmax_naive", "softmax_ref.py", SOFTMAX, {"rows": 4096, "cols": 1024}),
    ("softmax_block 257x1000", "softmax_block", "softmax_ref.py", SOFTMAX, {"rows": 257, "cols": 1000}),
    ("softmax_block 4096x1024", "softmax_block", "softmax_ref.py", SOFTMAX, {"rows": 4096, "cols": 1024}),
    # scalar path (cols % 4 != 0) and the two-pass online path (row too long for registers)
    ("softmax_block 33x1001", "softmax_block", "softmax_ref.py", SOFTMAX, {"rows": 33, "cols": 1001}),
    ("softmax_block 5x20000", "softmax_block", "softmax_ref.py", SOFTMAX, {"rows": 5, "cols": 20000}),
    ("softmax_block 5x40001", "softmax_block", "softmax_ref.py", SOFTMAX, {"rows": 5, "cols": 40001}),
    ("matmul_naive 129x67x95", "matmul_naive", "matmul_ref.py", MATMUL, {"M": 129, "N": 67, "K": 95}),
    ("cutlass_gemm 512x256x128", "cutlass_gemm", "cutlass_gemm_ref.py", CUTLASS_GEMM,
     {"M": 512, "N": 256, "K": 128}),
    # tile residues in every dimension (N and K stay multiples of 8)
    ("cutlass_gemm 1000x264x136", "cutlass_gemm", "cutlass_gemm_ref.py", CUTLASS_GEMM,
     {"M": 1000, "N": 264, "K": 136}),
    ("axpy_inout", "axpy_inout", "axpy_inout_ref.py", AXPY, {"N": 1000003, "alpha": 1.5}),
    ("histogram", "histogram", "histogram_ref.py", HISTOGRAM, {"N": 1000003, "num_bins": 257}),
]

INT_POISON = 0x7F7F7F7F
GUARD_BYTES = 256  # guard zone before and after every kernel buffer (keeps 16-byte alignment)


def default_tolerances(dtype):
    if dtype == torch.float32:
        return 1e-4, 1e-3
    if dtype in (torch.float16, torch.bfloat16):
        return 2e-2, 2e-2
    if dtype == torch.float64:
        return 1e-8, 1e-6
    return 0.0, 0.0  # integers and bool: exact


def is_float(dtype):
    return dtype.is_floating_point


def poison_like(t):
    if is_float(t.dtype):
        t.fill_(float("nan"))
    else:
        t.fill_(INT_POISON)
    return t


def guard_pattern(n, dtype, device):
    # A recognizable bit pattern that is not the output poison.
    if is_float(dtype):
        return torch.full((n,), -12345.0, dtype=dtype, device=device)
    return torch.full((n,), -0x1234567, dtype=dtype, device=device)


class Buffer:
    """A flat CUDA tensor of `n` elements with guard zones on both sides."""

    def __init__(self, n, dtype, device):
        esize = torch.empty((), dtype=dtype).element_size()
        self.g = GUARD_BYTES // esize
        self.n = n
        self.storage = guard_pattern(n + 2 * self.g, dtype, device)
        self.view = self.storage[self.g:self.g + n]

    def ptr(self):
        return self.view.data_ptr()

    def guards_intact(self):
        ref = guard_pattern(self.g, self.storage.dtype, self.storage.device)
        before = self.storage[:self.g]
        after = self.storage[self.g + self.n:]
        return torch.equal(before, ref) and torch.equal(after, ref)


def fill_input(t, spec, dims, gen):
    kind = spec[0]
    if kind == "normal":
        if is_float(t.dtype):
            t.copy_(torch.randn(t.numel(), generator=gen, device=t.device, dtype=torch.float32).to(t.dtype))
        else:
            t.copy_(torch.randint(-1000, 1000, (t.numel(),), generator=gen, device=t.device, dtype=torch.int64).to(t.dtype))
    elif kind == "range":
        lo, hi = spec[1](dims), spec[2](dims)
        if is_float(t.dtype):
            r = torch.rand(t.numel(), generator=gen, device=t.device, dtype=torch.float32)
            t.copy_((lo + (hi - lo) * r).to(t.dtype))
        else:
            t.copy_(torch.randint(lo, hi, (t.numel(),), generator=gen, device=t.device, dtype=torch.int64).to(t.dtype))
    else:
        raise ValueError("unknown fill " + repr(spec))


def load_library(path):
    if not os.path.isfile(path):
        raise FileNotFoundError("library not found: " + path)
    return ctypes.CDLL(os.path.abspath(path))


def load_reference_module(path):
    if not os.path.isfile(path):
        raise FileNotFoundError("reference not found: " + path)
    mod_name = "kopt_example_ref_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "reference"):
        raise AttributeError(path + " has no reference() function")
    return module


def call_solve(lib, params, dims, tensors):
    """Call lib.solve with device pointers from `tensors` (name -> pointer int)."""
    argtypes, args = [], []
    for p in params:
        if p["kind"] == "buf":
            argtypes.append(ctypes.c_void_p)
            args.append(ctypes.c_void_p(tensors[p["name"]]))
        else:
            argtypes.append(p["ctype"])
            args.append(p["ctype"](dims[p["name"]]))
    lib.solve.argtypes = argtypes
    lib.solve.restype = None
    lib.solve(*args)
    torch.cuda.synchronize()


def compare(name, got, want, atol, rtol):
    """Return None when equal within tolerance, else a description."""
    if got.shape != want.shape:
        return "%s: shape %s vs reference %s" % (name, tuple(got.shape), tuple(want.shape))
    if is_float(want.dtype):
        g, w = got.double(), want.double()
        diff = (g - w).abs()
        ok = diff <= (atol + rtol * w.abs())
        # Where the reference has NaN, the kernel must have NaN too (and vice versa).
        ok = torch.where(torch.isnan(w), torch.isnan(g), ok)
        bad = ~ok
        if not bool(bad.any()):
            return None
        finite = torch.isfinite(diff)
        max_err = float(diff[finite].max()) if bool(finite.any()) else float("nan")
        idx = int(bad.nonzero()[0, 0])
        return "%s: %d of %d elements differ (atol=%g rtol=%g), max abs err %.6g, first bad index %d: got %r, expected %r" % (
            name, int(bad.sum()), want.numel(), atol, rtol, max_err, idx, float(g[idx]), float(w[idx]))
    bad = got != want
    if not bool(bad.any()):
        return None
    idx = int(bad.nonzero()[0, 0])
    max_err = int((got.long() - want.long()).abs().max())
    return "%s: %d of %d elements differ (exact), max abs err %d, first bad index %d: got %d, expected %d" % (
        name, int(bad.sum()), want.numel(), max_err, idx, int(got[idx]), int(want[idx]))


def run_case(label, stem, ref_name, params, dims, lib_dir, examples_dir, seed):
    device = torch.device("cuda")
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)

    lib = load_library(os.path.join(lib_dir, stem + ".so"))
    native_ref = ref_name.endswith(".so")
    if native_ref:
        ref_lib = load_library(os.path.join(lib_dir, ref_name))
        ref_mod = None
    else:
        ref_mod = load_reference_module(os.path.join(examples_dir, ref_name))

    # Kernel buffers, with guard zones.
    bufs, initial = {}, {}
    for p in params:
        if p["kind"] != "buf":
            continue
        b = Buffer(p["size"](dims), p["dtype"], device)
        if p["role"] in ("in", "inout"):
            fill_input(b.view, p["fill"], dims, gen)
        else:
            poison_like(b.view)
        bufs[p["name"]] = b
        initial[p["name"]] = b.view.clone()

    call_solve(lib, params, dims, {n: b.ptr() for n, b in bufs.items()})

    problems = []
    for p in params:
        if p["kind"] != "buf":
            continue
        b = bufs[p["name"]]
        if not b.guards_intact():
            problems.append("%s: write outside the buffer (guard zone changed)" % p["name"])
        if p["role"] == "in" and not torch.equal(b.view, initial[p["name"]]):
            problems.append("%s: input buffer was modified by the kernel" % p["name"])

    # Reference: cloned inputs, separate (poisoned) outputs, initial contents for inout.
    ref_tensors = {}
    for p in params:
        if p["kind"] != "buf":
            continue
        t = initial[p["name"]].clone()
        if p["role"] == "out":
            poison_like(t)
        ref_tensors[p["name"]] = t
    if native_ref:
        call_solve(ref_lib, params, dims, {n: t.data_ptr() for n, t in ref_tensors.items()})
        atol_mod = rtol_mod = 0.0  # same operation, same precision: exact
    else:
        kwargs = dict(ref_tensors)
        for p in params:
            if p["kind"] == "scalar":
                kwargs[p["name"]] = dims[p["name"]]
        with torch.no_grad():
            ref_mod.reference(**kwargs)
        torch.cuda.synchronize()
        atol_mod = getattr(ref_mod, "atol", None)
        rtol_mod = getattr(ref_mod, "rtol", None)

    for p in params:
        if p["kind"] != "buf" or p["role"] == "in":
            continue
        d_atol, d_rtol = default_tolerances(p["dtype"])
        if not is_float(p["dtype"]):
            atol, rtol = 0.0, 0.0
        else:
            atol = d_atol if atol_mod is None else float(atol_mod)
            rtol = d_rtol if rtol_mod is None else float(rtol_mod)
        msg = compare(p["name"], bufs[p["name"]].view, ref_tensors[p["name"]], atol, rtol)
        if msg:
            problems.append(msg)
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib-dir", required=True, help="directory with <stem>.so for each example")
    ap.add_argument("--examples-dir", default=here, help="directory with the *_ref.py files (default: this script's)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--only", nargs="*", default=None, help="run only cases whose label starts with one of these")
    args = ap.parse_args()

    if not torch.cuda.is_available():
        print("FAIL setup: torch sees no CUDA device")
        return 1
    lib_dir = os.path.abspath(args.lib_dir)
    examples_dir = os.path.abspath(args.examples_dir)

    failed = 0
    for label, stem, ref_name, params, dims in CASES:
        if args.only and not any(label.startswith(o) for o in args.only):
            continue
        try:
            problems = run_case(label, stem, ref_name, params, dims, lib_dir, examples_dir, args.seed)
        except Exception as exc:  # a missing file, a CUDA fault, a broken reference...
            problems = ["%s: %s" % (type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "")]
        if problems:
            failed += 1
            print("FAIL %s: %s" % (label, "; ".join(problems)), flush=True)
        else:
            print("PASS %s" % label, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
