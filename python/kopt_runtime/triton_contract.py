"""The Triton contract (DESIGN.md, as the Python toolkit had it): setup(**dims, seed=...)
returns {"inputs": {name: tensor or scalar}, "outputs": [names among the inputs]} and
run_kernel(**inputs) launches the kernel. kopt adds an optional "inout": [names among the
outputs] for outputs whose setup() contents the kernel reads (they are not poisoned)."""

import inspect

from . import modules
from .problems import UserCodeProblem, describe_exception, exception_detail

SCALAR_TYPES = (int, float, bool)


def dimension_value(text):
    """--rows=4096 gives 4096; a value that is not a number stays text."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


class TritonModule:
    """A module with setup() (and, for a kernel, run_kernel()): the kernel module, or a
    reference module whose setup() defines the problem."""

    def __init__(self, path, needs_run_kernel=True, needs_setup=True):
        self.path = path
        self.module = modules.load_module(path, "Triton kernel" if needs_run_kernel else "reference", "kopt_triton")
        what = "Triton kernel" if needs_run_kernel else "reference"
        self.setup = modules.function_of(self.module, "setup", path, what) if needs_setup else None
        self.run_kernel = modules.function_of(self.module, "run_kernel", path, what) if needs_run_kernel else None
        self.takes_seed = True

    def check_dimensions(self, dims):
        """Says which dimensions setup() needs and did not get, or got and does not take."""
        if self.setup is None:
            return
        try:
            parameters = inspect.signature(self.setup).parameters.values()
        except (TypeError, ValueError):
            return
        accepts_any = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters)
        named = {p.name for p in parameters if p.kind != inspect.Parameter.VAR_KEYWORD}
        self.takes_seed = accepts_any or "seed" in named
        required = [p.name for p in parameters
                    if p.default is inspect.Parameter.empty and p.name != "seed"
                    and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]
        missing = [n for n in required if n not in dims]
        if missing:
            raise UserCodeProblem(f"setup() in {self.path} needs {', '.join(missing)}: pass "
                                  + " ".join(f"--{n}=VALUE" for n in missing))
        unknown = [n for n in dims if n not in named] if not accepts_any else []
        if unknown:
            raise UserCodeProblem(f"setup() in {self.path} does not take {', '.join(unknown)}: remove "
                                  + " ".join(f"--{n}" for n in unknown) + " or add **_ to setup()'s parameters")

    def prepare(self, torch, dims, seed):
        """Calls setup() and checks what it returned: (inputs, outputs, inout)."""
        kwargs = dict(dims)
        if self.takes_seed:
            kwargs["seed"] = seed
        try:
            prepared = self.setup(**kwargs)
        except Exception as e:
            raise UserCodeProblem(f"setup() in {self.path} raised {describe_exception(e)}", exception_detail(e))
        return self.check_prepared(torch, prepared)

    def check_prepared(self, torch, prepared):
        where = f"setup() in {self.path}"
        shape = 'a dict {"inputs": {name: tensor or scalar}, "outputs": [names]}'
        if not isinstance(prepared, dict) or not isinstance(prepared.get("inputs"), dict):
            raise UserCodeProblem(f"{where} returned {type(prepared).__name__} without an \"inputs\" dict: return {shape}")
        inputs, outputs = prepared["inputs"], prepared.get("outputs")
        if not isinstance(outputs, (list, tuple)) or not outputs or not all(isinstance(n, str) for n in outputs):
            raise UserCodeProblem(f"{where} returned no \"outputs\" list of input names: return {shape}")
        for name in outputs:
            if name not in inputs:
                raise UserCodeProblem(f"{where}: output {name!r} is not among the inputs ({', '.join(inputs)}): "
                                      "every output must be a tensor in \"inputs\" that run_kernel writes")
            if not isinstance(inputs[name], torch.Tensor):
                raise UserCodeProblem(f"{where}: output {name!r} is of type {type(inputs[name]).__name__}, not a tensor: "
                                      "outputs must be tensors that run_kernel writes in place")
        for name, value in inputs.items():
            if not isinstance(value, torch.Tensor) and not isinstance(value, SCALAR_TYPES) and value is not None:
                raise UserCodeProblem(f"{where}: input {name!r} is of type {type(value).__name__}: inputs are tensors "
                                      "or numbers")
        inout = prepared.get("inout", [])
        if not isinstance(inout, (list, tuple)) or any(n not in outputs for n in inout):
            raise UserCodeProblem(f"{where}: \"inout\" must list names among the outputs ({', '.join(outputs)})")
        return dict(inputs), list(outputs), list(inout)
