"""The files a measuring process leaves for kopt, which gives the verdict (the C++ side is
harness/evidence_files.h): one folder per set of inputs, named after its key ("seed_3",
"call_57"), with `<name>.out.bin` for every output. A Triton kernel's process also leaves the
inputs it ran on, since they come from its module's setup(): `<name>.bin` for every tensor as
it was before the call (outputs that are not inout as poison) and `tensors.json` with each
tensor's kopt element type, shape and role and every scalar, from which the reference's own
process makes the same tensors."""

import json
import os

from . import torch_support
from .problems import UserCodeProblem


def folder_name(key):
    return f"{'seed' if key['kind'] == 'seed' else 'call'}_{key['value']}"


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def write_output_files(torch, folder, kwargs, names):
    """`<name>.out.bin` in `folder` for each of `names`: the tensor's elements in logical order."""
    for name in names:
        _write(os.path.join(folder, name + ".out.bin"), torch_support.bytes_of(torch, kwargs[name]))


def write_outputs(torch, root, key, kwargs, names):
    folder = os.path.join(root, folder_name(key))
    os.makedirs(folder, exist_ok=True)
    write_output_files(torch, folder, kwargs, names)


def write_inputs(torch, root, key, before, outputs, inout, scalars, known_types):
    """`before`: every tensor as the call got it (outputs poisoned unless inout)."""
    folder = os.path.join(root, folder_name(key))
    os.makedirs(folder, exist_ok=True)
    tensors = []
    for name, value in scalars.items():
        if not isinstance(value, (bool, int, float, str)) and value is not None:
            raise UserCodeProblem(f"setup() returned {name} of type {type(value).__name__}, which the reference's "
                                  "process cannot be given: return tensors, numbers or strings")
    for name, tensor in before.items():
        role = "inout" if name in inout else "out" if name in outputs else "in"
        dtype = torch_support.element_type_of(tensor.dtype, known_types)
        if dtype is None:
            raise UserCodeProblem(f"setup() returned {name} as {tensor.dtype}, which kopt cannot compare: use one of "
                                  + ", ".join(known_types))
        tensors.append({"name": name, "dtype": dtype,
                        "shape": list(tensor.shape), "elements": tensor.numel(), "role": role})
        _write(os.path.join(folder, name + ".bin"), torch_support.bytes_of(torch, tensor))
    with open(os.path.join(folder, "tensors.json"), "w", encoding="utf-8") as f:
        json.dump({"tensors": tensors, "scalars": scalars}, f)


def read_inputs(torch, root, key, device):
    """(kwargs with fresh tensors on `device` and the scalars, the manifest)."""
    folder = os.path.join(root, folder_name(key))
    with open(os.path.join(folder, "tensors.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    kwargs = dict(manifest["scalars"])
    for t in manifest["tensors"]:
        dtype = torch_support.dtype_named(torch, t["dtype"])
        with open(os.path.join(folder, t["name"] + ".bin"), "rb") as f:
            data = bytearray(f.read())
        flat = (torch.frombuffer(data, dtype=torch.uint8).view(dtype) if data
                else torch.empty(0, dtype=dtype))
        kwargs[t["name"]] = flat.reshape(t["shape"]).to(device)
    return kwargs, manifest
