"""How a runner started ahead spent its time before its command: importing the trusted modules,
making its CUDA context when kopt asked for it, and waiting at the gate. A wait near zero means
kopt opened the gate while the imports were still running, so they, not the command, held the
run up."""

preload_s = None        # [s] importing torch (and Triton) after the start; None when not started ahead
gate_wait_s = None      # [s] from the end of those imports to kopt's go line, less context_ahead_s
context_ahead_s = None  # [s] making the CUDA context at kopt's request before the go line


def facts():
    """The figures for a command's overhead, or nothing when the runner was not gated."""
    if preload_s is None:
        return {}
    facts = {"preload_s": preload_s, "gate_wait_s": gate_wait_s}
    if context_ahead_s is not None:
        facts["context_ahead_s"] = context_ahead_s
    return facts
