"""torch's precision settings in a Python process that runs code kopt judges or compares with (a
Triton kernel's module, a `.py` reference), as kopt records them: the least precise value each
setting had at any moment kopt looked, so that a module that turns TF32 on only while it is timed
is recorded with TF32 on (EXPLOITS class 25; the parent compares the two sides:
pipeline/precision_settings.h).

kopt looks after the module is loaded, after every call, and after every call of one of torch's
setters of these settings (torch._C's `_set_*`, which torch.backends and
torch.set_float32_matmul_precision go through), so a setting switched on and back off inside a
call is seen too. A module that calls into libtorch below Python can still hide a change; that
is the hostile native code docs/integrity.md counts as out of reach."""

import os

# Least precise last: the matmul precision recorded is the lowest seen.
_MATMUL_PRECISION_ORDER = ["highest", "high", "medium"]

# torch._C's setters that change a setting recorded here (those this torch has are watched).
_SETTERS = ("_set_cublas_allow_tf32", "_set_cudnn_allow_tf32", "_set_float32_matmul_precision",
            "_set_cublas_allow_fp16_reduced_precision_reduction",
            "_set_cublas_allow_bf16_reduced_precision_reduction", "_set_fp32_precision_setter")


def _read(getter):
    """A getter's value, or None where torch refuses it (torch 2.9+ refuses the legacy getters once
    a module mixed them with the `fp32_precision` API)."""
    try:
        return getter()
    except Exception:  # noqa: BLE001 - any refusal is "unreadable"
        return None


def settings_now(torch):
    """The settings as torch and the environment have them at this moment."""
    matmul = torch.backends.cuda.matmul
    # torch 2.9+'s API beside the legacy one: "tf32", "ieee" or "none" (follow the legacy setting).
    matmul_fp32 = _read(lambda: torch._C._get_fp32_precision_getter("cuda", "matmul"))
    conv_fp32 = _read(lambda: torch._C._get_fp32_precision_getter("cuda", "conv"))
    precision = _read(torch.get_float32_matmul_precision)
    if precision is None:
        precision = {"tf32": "high", "ieee": "highest"}.get(matmul_fp32)
    tf32_matmul = _read(lambda: bool(matmul.allow_tf32))
    now = {"float32_matmul_precision": precision,
           "tf32_matmul": bool(tf32_matmul) or matmul_fp32 == "tf32",
           "tf32_cudnn": bool(_read(lambda: bool(torch.backends.cudnn.allow_tf32))) or conv_fp32 == "tf32",
           "nvidia_tf32_override": os.environ.get("NVIDIA_TF32_OVERRIDE")}
    for name in ("fp16", "bf16"):
        attribute = f"allow_{name}_reduced_precision_reduction"
        now[f"{name}_reduced_precision_reduction"] = _read(lambda: bool(getattr(matmul, attribute))) \
            if hasattr(matmul, attribute) else None
    return now


def least_precise(seen, now):
    """`seen` and `now` merged: a setting that was ever on stays on; the lowest matmul precision;
    the first value of NVIDIA_TF32_OVERRIDE that was set."""
    if seen is None:
        return dict(now)
    merged = dict(seen)
    for key in ("tf32_matmul", "tf32_cudnn", "fp16_reduced_precision_reduction", "bf16_reduced_precision_reduction"):
        if now[key] is not None:
            merged[key] = bool(seen[key]) or now[key]
    order = _MATMUL_PRECISION_ORDER
    known = [p for p in (seen["float32_matmul_precision"], now["float32_matmul_precision"]) if p in order]
    merged["float32_matmul_precision"] = order[max(order.index(p) for p in known)] if known else None
    if merged["nvidia_tf32_override"] is None:
        merged["nvidia_tf32_override"] = now["nvidia_tf32_override"]
    merged["changed"] = bool(seen.get("changed")) or any(now[k] != seen[k] for k in now)
    return merged


class PrecisionWatch:
    """The least precise settings seen since `hook()`."""

    def __init__(self, torch):
        self.torch = torch
        self.seen = None

    def look(self):
        self.seen = least_precise(self.seen, settings_now(self.torch))

    def hook(self):
        """Looks after every call of torch's setters from here on. Called before the module is
        imported, whose first look comes once it is loaded (torch's defaults before it are not
        the module's settings)."""
        native = self.torch._C
        for name in _SETTERS:
            setter = getattr(native, name, None)
            if setter is not None:
                setattr(native, name, self._watched(setter))

    def looking_after(self, function):
        """`function`, looking after each of its calls."""
        def call_and_look(*args, **kwargs):
            answer = function(*args, **kwargs)
            self.look()
            return answer
        return call_and_look

    def _watched(self, setter):
        def set_and_look(*args, **kwargs):
            answer = setter(*args, **kwargs)
            self.look()
            return answer
        return set_and_look

    def facts(self):
        """The fields torch_facts adds to torch's version (runner_documents.h)."""
        if self.seen is None:
            self.look()
        facts = {key: self.seen[key] for key in ("tf32_matmul", "tf32_cudnn", "fp16_reduced_precision_reduction",
                                                 "bf16_reduced_precision_reduction", "nvidia_tf32_override")}
        # "unknown" where torch refused every way of reading it: kopt flags it as a difference.
        return {"float32_matmul_precision": self.seen["float32_matmul_precision"] or "unknown", **facts,
                "precision_changed": bool(self.seen.get("changed"))}
