"""torch and Triton as the runner needs them: importing with a message that says what to
install, element types in kopt's names, bytes of tensors, and facts for provenance."""

import ctypes
import os
import sys

from .problems import UserCodeProblem


def import_torch():
    try:
        import torch
    except ImportError as e:
        raise UserCodeProblem(
            f"torch is not installed for {sys.executable} ({e}): install it (pip install torch==2.11.0) or point "
            "KOPT_PYTHON at a Python that has it")
    return torch


def import_triton():
    try:
        import triton
    except ImportError as e:
        raise UserCodeProblem(
            f"triton is not installed for {sys.executable} ({e}): install it (pip install triton==3.6.0) or point "
            "KOPT_PYTHON at a Python that has it")
    return triton


def require_gpu(torch):
    if not torch.cuda.is_available():
        raise UserCodeProblem(f"torch {torch.__version__} in {sys.executable} cannot use the GPU "
                              "(torch.cuda.is_available() is False): install a CUDA build of torch")
    torch.zeros(1, device="cuda")  # create the context now, not inside the first measurement


def choose_device(torch):
    """"cuda"; or "cpu" under Triton's interpreter (TRITON_INTERPRET=1) on a machine without a
    GPU: checks only, no timing. Anything else without a usable GPU is the user's to fix."""
    if torch.cuda.is_available():
        require_gpu(torch)
        return "cuda"
    if os.environ.get("TRITON_INTERPRET") == "1":
        return "cpu"
    require_gpu(torch)


def element_type_of(dtype, known):
    """kopt's name of a torch dtype (kopt's names and torch's dtype attributes agree), or None
    when it is not among `known`, the names kopt can compare (HarnessAbi.conventions())."""
    name = str(dtype).replace("torch.", "")
    return name if name in known else None


def dtype_named(torch, name):
    return getattr(torch, name)


def as_bytes(torch, tensor):
    """The tensor's elements in logical order, as a flat uint8 tensor on its device."""
    flat = tensor.detach().contiguous().reshape(-1)
    return flat.view(torch.uint8) if flat.numel() else torch.empty(0, dtype=torch.uint8, device=flat.device)


def host_bytes(torch, tensor):
    """A host uint8 tensor of the elements (kept alive by the caller while its pointer is used)."""
    return as_bytes(torch, tensor).cpu()


def span_elements(tensor):
    """Elements of storage the tensor's view reaches, from its first element."""
    if tensor.numel() == 0:
        return 0
    return 1 + sum((size - 1) * stride for size, stride in zip(tensor.shape, tensor.stride()))


def write_storage(torch, tensor, file):
    """Writes the bytes of the storage the tensor's view reaches, from its first element (what
    kopt's buffer for it holds; for a contiguous tensor, its elements in order) to an open
    binary file, from one host copy (no intermediate bytes object: outputs can be hundreds of
    MiB per set of inputs)."""
    span = span_elements(tensor)
    if span:
        host = host_bytes(torch, tensor.detach().as_strided((span,), (1,)))
        # A ctypes view of the host copy: the file is written from it without another copy.
        file.write((ctypes.c_uint8 * host.numel()).from_address(host.data_ptr()))


class CudaBuffer:
    """A device allocation of kopt's, for torch.as_tensor (the CUDA array interface)."""

    def __init__(self, address, size):
        self.__cuda_array_interface__ = {"shape": (size,), "typestr": "|u1", "data": (address, False), "version": 3,
                                         "strides": None}


def tensor_over(torch, address, size, device):
    """A uint8 tensor over `size` bytes at `address` (device memory, or host memory on the CPU),
    sharing them: nothing is copied, and kopt keeps ownership."""
    if size == 0:
        return torch.empty(0, dtype=torch.uint8, device=device)
    if device == "cuda":
        return torch.as_tensor(CudaBuffer(address, size), device="cuda")
    return torch.frombuffer((ctypes.c_uint8 * size).from_address(address), dtype=torch.uint8)


def tensor_from_file(torch, path, dtype, device):
    """A flat tensor of `dtype` on `device` holding the file's bytes, read once into the
    tensor's own memory."""
    size = os.path.getsize(path)
    element = dtype_named(torch, dtype)
    if size == 0:
        return torch.empty(0, dtype=element, device=device)
    return torch.from_file(path, shared=False, size=size, dtype=torch.uint8).view(element).to(device)


def poisoned_tensor(torch, element_hex, elements, dtype, device):
    """A flat tensor of `elements` elements of `dtype` on `device`, each holding the bytes
    `element_hex` names (kopt's poison for the type: harness/poison.h)."""
    element = dtype_named(torch, dtype)
    pattern = torch.tensor(list(bytes.fromhex(element_hex)), dtype=torch.uint8, device=device)
    return pattern.repeat(int(elements)).view(element)


def same_bytes(torch, a, b):
    return torch.equal(as_bytes(torch, a), as_bytes(torch, b))


def torch_facts(torch, watch):
    """torch's version, and the precision settings `watch` (precision_watch.PrecisionWatch) saw."""
    return {"version": torch.__version__, "cuda": torch.version.cuda or "none", **watch.facts()}
