"""The documents the runner exchanges with kopt, read and written through the same checks as kopt's
own: each against its JSON Schema, which kopt derives from the document's one definition and
places beside this package (share/kopt/schemas). A document that breaks its schema (a field
missing, renamed, of the wrong type or out of range), nests too deep or holds a number beyond a
double's range is refused with the field named, never half read.

The checks cover the parts of JSON Schema that kopt's schemas use: type, properties, required,
additionalProperties, enum, const, anyOf, items, minItems, maxItems, minimum, maximum."""

import json
import math
import os

from .problems import EnvironmentProblem

MAX_DEPTH = 64  # nested arrays and objects, as kopt's reader allows
# Beside the runner where kopt is built or installed (share/kopt/schemas); in a checkout, where the
# runner runs from python/, the copies kept in docs/schemas (a test holds them equal).
_HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_DIR = next((d for d in (os.path.join(_HOME, "schemas"), os.path.join(_HOME, "..", "docs", "schemas"))
                   if os.path.isdir(d)), os.path.join(_HOME, "schemas"))
_schemas = {}

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
_EXPECTED = {"object": "an object", "array": "an array", "string": "a string", "boolean": "true or false",
             "null": "null", "integer": "a whole number", "number": "a number"}


class DocumentError(Exception):
    """A document its schema refuses: `field` is where ("" for the whole), the message says why."""

    def __init__(self, field, problem):
        super().__init__(f"field {field}: {problem}" if field else problem)
        self.field = field


def schema_of(name):
    if name not in _schemas:
        path = os.path.join(SCHEMA_DIR, name + ".schema.json")
        try:
            with open(path, encoding="utf-8") as f:
                _schemas[name] = json.load(f)
        except OSError as e:
            raise EnvironmentProblem(f"kopt's schema of {name} is missing ({e}): reinstall kopt") from e
    return _schemas[name]


def _type_name(value):
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    for name, kind in _TYPES.items():
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _is(value, kind):
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def _matches(value, schema):
    try:
        _check(value, schema, "", 0)
        return True
    except DocumentError:
        return False


def _check(value, schema, field, depth):
    if depth > MAX_DEPTH:
        raise DocumentError(field, f"arrays and objects nested deeper than {MAX_DEPTH} levels")
    if "anyOf" in schema:
        if not any(_matches(value, option) for option in schema["anyOf"]):
            first = schema["anyOf"][0]
            _check(value, first, field, depth)  # the first option's complaint is the useful one
        return
    if "const" in schema and value != schema["const"]:
        raise DocumentError(field, f"is {json.dumps(value)}, expected {json.dumps(schema['const'])} (a document of "
                                   "another kopt version, or not kopt's)")
    if "enum" in schema and value not in schema["enum"]:
        raise DocumentError(field, f"is {json.dumps(value)}, not one of {', '.join(schema['enum'])}")
    kind = schema.get("type")
    if kind and not _is(value, kind):
        raise DocumentError(field, f"must be {_EXPECTED[kind]}, found {_type_name(value)} {_shown(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise DocumentError(field, "is not a finite number")
    if "minimum" in schema and _is(value, "number") and value < schema["minimum"]:
        raise DocumentError(field, f"is {value}, must be at least {schema['minimum']}")
    if "maximum" in schema and _is(value, "number") and value > schema["maximum"]:
        raise DocumentError(field, f"is {value}, must be at most {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            raise DocumentError(field, f"has {len(value)} elements")
        for i, element in enumerate(value):
            _check(element, schema.get("items", {}), f"{field}[{i}]", depth + 1)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                raise DocumentError(_join(field, key), "is missing")
        extra = schema.get("additionalProperties", True)
        for key, element in value.items():
            if key in properties:
                _check(element, properties[key], _join(field, key), depth + 1)
            elif extra is False:
                raise DocumentError(_join(field, key), "is not a field of this document (one of another kopt version?)")
            elif isinstance(extra, dict):
                _check(element, extra, _join(field, key), depth + 1)
        if "x-kopt-parts" in schema:
            _check_parts(value, schema["x-kopt-parts"], field)


def _check_parts(value, table, field):
    """A document whose kind decides which optional fields it carries (kopt's document_parts_table):
    each part present in the kinds named for it, absent from the others."""
    kind = value[table["discriminator"]]
    for part, kinds in table["parts"].items():
        present = value.get(part) is not None
        if kind in kinds and not present:
            raise DocumentError(_join(field, part), f"is missing: a {kind} {table['noun']} needs one")
        if kind not in kinds and present:
            raise DocumentError(_join(field, part), f"is not part of a {kind} {table['noun']}")


def _shown(value):
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:60] + "..."


def _join(field, key):
    return f"{field}.{key}" if field else key


def check(document, name):
    """`document` itself when its schema `name` takes it; DocumentError otherwise."""
    _check(document, schema_of(name), "", 1)
    return document


def _refuse_constant(text):
    raise DocumentError("", f"{text} is not a JSON number")


def parse(text, name):
    """The text's document, read within the limits and checked against schema `name`."""
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as e:
        raise DocumentError("", f"arrays and objects nested deeper than {MAX_DEPTH} levels") from e
    except ValueError as e:
        raise DocumentError("", f"not valid JSON ({e})") from e
    return check(document, name)


def read(path, name):
    """The document in file `path`, checked against schema `name`; an EnvironmentProblem naming the
    file when it is unreadable or refused (kopt wrote it: another kopt version, or damage)."""
    try:
        with open(path, encoding="utf-8") as f:
            return parse(f.read(), name)
    except (OSError, DocumentError) as e:
        raise EnvironmentProblem(f"{path}: {e}; the kopt that wrote it is not this runner's: reinstall kopt") from e


def write(path, document, name):
    """Writes `document` whole or not at all, once its schema `name` takes it."""
    check(document, name)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(document, f, allow_nan=False)
    os.replace(temporary, path)
