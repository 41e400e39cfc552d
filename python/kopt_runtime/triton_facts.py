"""What Triton actually ran for one run_kernel call: each compiled kernel's launch
configuration (num_warps, num_stages, the constexpr block sizes, shared memory), its registers
and spills, and the autotuner's choice. Found by watching the module's jitted functions."""


def jitted_functions(triton, module):
    """(JITFunction, autotuner or None) for every jitted kernel the module defines at top level;
    decorators such as triton.autotune and triton.heuristics wrap the JITFunction in `.fn`."""
    from triton.runtime.jit import JITFunction

    found = []
    for value in vars(module).values():
        tuner, wrapper = None, value
        for _ in range(4):  # autotune(heuristics(jit(f))) is as deep as anyone goes
            if isinstance(wrapper, JITFunction):
                found.append((wrapper, tuner))
                break
            if type(wrapper).__name__ == "Autotuner":
                tuner = wrapper
            wrapper = getattr(wrapper, "fn", None)
            if wrapper is None:
                break
    return found


class LaunchedKernels:
    """The names of every kernel Triton compiled and launched in this process, whatever module
    defines it: JITFunction.run is wrapped for the whole class, so no launch goes unseen. kopt
    names the kernels a call ran that are not among them as a library's (torch, cuBLAS)."""

    def __init__(self):
        from triton.runtime.jit import JITFunction

        self.names = set()
        names, original = self.names, JITFunction.run

        def run(function, *args, **kwargs):
            kernel = original(function, *args, **kwargs)
            name = getattr(kernel, "name", None)
            if name:
                names.add(name)
            return kernel

        JITFunction.run = run


class LaunchWatcher:
    """Records the compiled kernel behind every launch of the watched functions."""

    def __init__(self, triton, module):
        self.launches = []
        self.originals = []
        self.watched = jitted_functions(triton, module)
        for function, tuner in self.watched:
            self._watch(function, tuner)

    def _watch(self, function, tuner):
        original = function.run
        launches = self.launches
        self.originals.append((function, original))

        def run(*args, **kwargs):
            kernel = original(*args, **kwargs)
            if not kwargs.get("warmup", False) and kernel is not None:
                launches.append((function, tuner, kernel, launch_grid(function, args, kwargs)))
            return kernel

        function.run = run

    def clear(self):
        self.launches.clear()

    def stop(self):
        """Puts the functions' own launchers back: later launches pay nothing for watching."""
        for function, original in self.originals:
            function.run = original
        self.originals.clear()

    def facts(self):
        """The distinct compiled kernels launched since the last clear(), in launch order."""
        seen, kernels = set(), []
        for function, tuner, kernel, grid in self.launches:
            if id(kernel) in seen:
                continue
            seen.add(id(kernel))
            kernels.append(kernel_facts(function, tuner, kernel, grid))
        return kernels


def launch_grid(function, args, kwargs):
    """The grid as Triton computed it: a callable grid gets the launch's arguments by name,
    constexprs (an autotuner's choice) included, as Triton itself calls it."""
    grid = kwargs.get("grid")
    if callable(grid):
        named = dict(zip(getattr(function, "arg_names", []), args))
        named.update(kwargs)
        try:
            grid = grid(named)
        except Exception:  # a grid function that needs more than the arguments: leave it out
            return None
    if isinstance(grid, (tuple, list)) and all(isinstance(g, int) for g in grid):
        return list(grid) + [1] * (3 - len(grid))
    return None


def constexpr_values(function, kernel):
    source = getattr(kernel, "src", None)
    values = getattr(source, "constexprs", None) or getattr(source, "constants", None) or {}
    names = getattr(function, "arg_names", [])
    out = {}
    for key, value in values.items():
        index = key[0] if isinstance(key, tuple) and key else key
        name = names[index] if isinstance(index, int) and index < len(names) else str(key)
        if isinstance(value, (int, float, bool, str)):
            out[name] = value
    return out


def kernel_facts(function, tuner, kernel, grid):
    metadata = getattr(kernel, "metadata", None)
    facts = {
        "function": getattr(getattr(function, "fn", None), "__name__", None) or getattr(function, "_fn_name", "?"),
        "name": getattr(kernel, "name", None),
        "num_warps": getattr(metadata, "num_warps", None),
        "num_stages": getattr(metadata, "num_stages", None),
        "num_ctas": getattr(metadata, "num_ctas", None),
        "shared_memory_bytes": getattr(metadata, "shared", None),
        "registers_per_thread": getattr(kernel, "n_regs", None),
        "spills": getattr(kernel, "n_spills", None),
        "constexprs": constexpr_values(function, kernel),
    }
    if grid is not None:
        facts["grid"] = grid
    if tuner is not None:
        chosen = getattr(tuner, "best_config", None)
        facts["autotuner"] = {
            "configs": len(getattr(tuner, "configs", []) or []),
            "key": list(getattr(tuner, "keys", []) or []),
            "chosen": config_facts(chosen) if chosen is not None else None,
        }
    return facts


def config_facts(config):
    return {"kwargs": {k: v for k, v in getattr(config, "kwargs", {}).items() if isinstance(v, (int, float, bool, str))},
            "num_warps": getattr(config, "num_warps", None), "num_stages": getattr(config, "num_stages", None)}
