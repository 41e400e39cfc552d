"""Checking a user's module without running it (before the seconds torch takes to import),
and importing it."""

import ast
import importlib.util
import os
import sys

from .problems import UserCodeProblem, describe_exception, exception_detail


def defined_names(path, what, flag):
    """Top-level names the module binds (functions, assignments, imports); raises when the
    file is missing or does not parse."""
    if not os.path.isfile(path):
        raise UserCodeProblem(f"{what} file {path} does not exist: check the {flag} path")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        raise UserCodeProblem(f"the {what} {path} does not parse: line {e.lineno}: {e.msg}")
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def check_reference(path):
    if "reference" not in defined_names(path, "reference", "--ref"):
        raise UserCodeProblem(
            f"the reference {path} defines no reference(): add def reference(**kwargs) that writes the expected "
            "values into the output tensors (named like the kernel's parameters)")


def check_triton_kernel(path, reference=None):
    """A Triton kernel needs run_kernel(), and setup() unless its reference defines one (the
    problem is then the reference's). Returns whose setup() the problem is: "reference" or
    "kernel"."""
    names = defined_names(path, "Triton kernel", "kernel")
    needed = ["run_kernel"]
    owner = "reference" if reference and "setup" in defined_names(reference, "reference", "--ref") else "kernel"
    if owner == "kernel":
        needed.insert(0, "setup")
    missing = [n for n in needed if n not in names]
    if missing:
        raise UserCodeProblem(
            f"the Triton kernel {path} defines no {' and no '.join(m + '()' for m in missing)}: a Triton module needs "
            "setup(**dims, seed=...) returning {\"inputs\": {...}, \"outputs\": [...]} (or a reference with one) "
            "and run_kernel(**inputs)")
    return owner


def load_module(path, what, prefix):
    """Imports a module that a check above has accepted."""
    spec = importlib.util.spec_from_file_location(f"{prefix}_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise UserCodeProblem(f"importing the {what} {path} failed: {describe_exception(e)}", exception_detail(e))
    return module


def function_of(module, name, path, what):
    function = getattr(module, name, None)
    if not callable(function):
        raise UserCodeProblem(f"the {what} {path}: {name} is not a function")
    return function


def number_attribute(module, name):
    value = getattr(module, name, None)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
