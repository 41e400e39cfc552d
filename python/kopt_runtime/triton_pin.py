# kopt tune's pin for a Triton module: a configuration's values put in place of the autotuner's
# search. kopt tune writes this function, with a call naming the values, at the end of each
# configuration's copy of the module and of the tuned module it leaves (docs/tune.md); it is
# self-contained so that the tuned module runs without kopt.


def _kopt_pin(namespace, values):
    """Pins every @triton.autotune kernel in `namespace` (a module's globals) to one Config.

    `config` picks which of the autotuner's configs to start from (the first when not given);
    `num_warps`, `num_stages` and `num_ctas` replace the config's own; any other name replaces a
    constexpr of the config's kwargs, or else a module-level integer of that name. A name that
    none of these holds is an error, so a misspelt tune parameter cannot pass unmeasured."""
    import triton

    values = dict(values)
    start = values.pop("config", 0)
    launch_options = ("num_warps", "num_stages", "num_ctas")
    used = set()
    for wrapper in list(namespace.values()):
        if type(wrapper).__name__ != "Autotuner":
            continue
        if not 0 <= start < len(wrapper.configs):
            raise ValueError(f"tune value config={start}: the autotuner of {wrapper.fn.__name__} has "
                             f"{len(wrapper.configs)} configs (0 to {len(wrapper.configs) - 1})")
        base = wrapper.configs[start]
        kwargs = dict(base.kwargs)
        options = {name: getattr(base, name) for name in launch_options if hasattr(base, name)}
        for name, value in values.items():
            if name in launch_options:
                options[name] = value
            elif name in kwargs:
                kwargs[name] = value
            else:
                continue
            used.add(name)
        wrapper.configs = [triton.Config(kwargs, pre_hook=base.pre_hook, **options)]
        used.add("config")
    for name, value in values.items():
        if name not in used and isinstance(namespace.get(name), int) and not isinstance(namespace[name], bool):
            namespace[name] = value
            used.add(name)
    unknown = sorted(set(values) - used) + ([] if "config" in used or start == 0 else ["config"])
    if unknown:
        raise NameError(f"tune parameter(s) {', '.join(unknown)} name no constexpr of an @triton.autotune "
                        f"config, no num_warps/num_stages/num_ctas, and no module-level integer")
