#!/usr/bin/env python3
"""Checks the structure docs/architecture.md describes, from the sources themselves.

  check_structure.py [--root DIR]

Reads the module order from the table under "## The modules, bottom up" in
docs/architecture.md (first column: the module, bottom first; last column: the modules it uses,
comma-separated, or "-"), derives the include graph of src/ and fails, naming the files, on:

  - an include that climbs the order: a file of module M includes a file of a module listed
    after M;
  - a cycle between files. A file is taken with its header or source of the same name
    (foo.h and foo.cpp are one unit: foo.cpp's includes are what foo needs), so a header whose
    types a lower header includes while its source includes that lower header is a cycle, as
    it is to a reader;
  - a module whose CMake links disagree with its includes or with the table: the kopt_*
    libraries a module's CMakeLists.txt links are exactly the modules its files include, which
    are exactly the table's "uses", and each target_link_libraries names them in the table's
    order;
  - a directory of src/ that the table does not list;
  - a function longer than FUNCTION_LINE_LIMIT lines in FUNCTION_LIMITED_MODULES.

How a function is found: comments, string and character literals and preprocessor lines are
blanked, then braces are matched. A `{` whose preceding text (since the last `;`, `{` or `}`)
starts with `namespace` or is `extern "C"` opens a namespace; one whose text holds class,
struct, union or enum outside parentheses opens a class (whose member functions are looked
into); one whose text has a parenthesis with no `=` before it (or names an operator) opens a
function body; any other opens a block that is skipped. A function's length is the number of
lines from the line of its `{` to the line of its `}`, both counted. Lambdas and blocks inside
a body count toward the body.

Exit 0 when everything holds; 1 with one line per finding; 2 when the table cannot be read.
Python's standard library only.
"""

import argparse
import collections
import os
import re
import subprocess
import sys

FUNCTION_LINE_LIMIT = 80
FUNCTION_LIMITED_MODULES = ("pipeline", "loop", "harness")

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")
MODULE_SECTION = "## The modules, bottom up"
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


class table_error(Exception):
    pass


# --- the documented order ---------------------------------------------------------------

def read_module_table(architecture_md):
    """[(module, [used modules])] in the documented order."""
    with open(architecture_md, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = lines.index(MODULE_SECTION)
    except ValueError:
        raise table_error(f"{architecture_md}: no line \"{MODULE_SECTION}\"")
    rows, in_table, past_rule = [], False, False
    for line in lines[start + 1:]:
        if line.startswith("## ") or (in_table and not line.startswith("|")):
            break
        if not line.startswith("|"):
            continue
        in_table = True
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not past_rule:  # the header row, then the rule under it
            past_rule = all(re.fullmatch(r":?-+:?", c) for c in cells)
            continue
        name = cells[0].strip("`")
        if not re.fullmatch(r"[a-z_]+", name):
            raise table_error(f"{architecture_md}: \"{cells[0]}\" in the module table is not a module's name")
        uses = cells[-1]
        used = [] if uses in ("-", "—") else [u.strip().strip("`") for u in uses.split(",")]
        rows.append((name, used))
    if not rows:
        raise table_error(f"{architecture_md}: no module table under \"{MODULE_SECTION}\"")
    return rows


# --- the include graph ------------------------------------------------------------------

def source_files(src):
    """{path relative to src: text}"""
    files = {}
    for directory, _, names in os.walk(src):
        for name in names:
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    files[os.path.relpath(path, src)] = f.read()
    return files


def module_of(path):
    return path.split(os.sep)[0]


def unit_of(path):
    return os.path.splitext(path)[0]


def includes(files, modules):
    """[(file, line, included path, the file it is or None, module or None)] per quoted include.

    An include is looked for beside the including file, then under src/. One found nowhere
    whose first folder is a module is that module's generated header; any other is outside kopt.
    """
    found = []
    for path, text in sorted(files.items()):
        for match in INCLUDE.finditer(text):
            spelled = match.group(1)
            line = text.count("\n", 0, match.start()) + 1
            beside = os.path.normpath(os.path.join(os.path.dirname(path), spelled))
            target = beside if beside in files else (spelled if spelled in files else None)
            if target is not None:
                module = module_of(target)
            else:
                first = spelled.split("/")[0]
                module = first if "/" in spelled and first in modules else None
            found.append((path, line, spelled, target, module))
    return found


def cycles(unit_edges):
    """The strongly connected components of more than one unit (Tarjan's, iteratively)."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = 0
    nodes = sorted(set(unit_edges) | {w for ws in unit_edges.values() for w in ws})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(unit_edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(unit_edges.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


# --- CMake links ------------------------------------------------------------------------

def module_links(src, module, modules):
    """Per target_link_libraries call of a module's CMakeLists.txt, the modules it links
    (kopt_<module>, in the order written); None without a CMakeLists.txt."""
    path = os.path.join(src, module, "CMakeLists.txt")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"#[^\n]*", "", f.read())
    calls = []
    for call in re.finditer(r"target_link_libraries\s*\(([^)]*)\)", text):
        names = [word[len("kopt_"):] for word in call.group(1).split()[1:] if word.startswith("kopt_")]
        calls.append([name for name in names if name in modules and name != module])
    return calls


# --- function lengths -------------------------------------------------------------------

def blank_non_code(text):
    """Comments, literals and preprocessor lines blanked; newlines kept, so lines still count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        raw = re.match(r'R"([^(\s]{0,16})\(', text[i:i + 20]) if c == "R" and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if raw:
            end = ")" + raw.group(1) + '"'
            j = text.find(end, i + raw.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000'000 is a number
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    lines, kept, continued = "".join(out).split("\n"), [], False
    for line in lines:
        if continued or line.lstrip().startswith("#"):
            continued = line.endswith("\\")
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept)


def opened_by(header):
    """What a `{` preceded by `header` opens: namespace, class, function or block."""
    text = header.strip()
    if re.match(r"(inline\s+)?namespace\b", text) or re.fullmatch(r'extern\s*""', text):
        return "namespace"
    outside = text
    while True:  # parenthesized groups emptied, so only the outermost words are looked at
        emptied = re.sub(r"\([^()]*\)", "()", outside)
        if emptied == outside:
            break
        outside = emptied.replace("()", "\0")
    outside = outside.replace("\0", "()")
    names_operator = re.search(r"\boperator\b", outside) is not None
    if re.search(r"\b(class|struct|union|enum)\b", outside) and not names_operator:
        return "class"
    if "()" in outside:
        before = outside.split("()")[0]
        return "function" if names_operator or "=" not in before else "block"
    return "block"


def long_functions(text, limit):
    """[(first line, lines, the function's declaration)] of the bodies over `limit` lines."""
    code = blank_non_code(text)
    scopes, found = [], []
    header_start, line, i = 0, 1, 0
    while i < len(code):
        c = code[i]
        if c == "\n":
            line += 1
        elif c == "{":
            kind = "block" if scopes and scopes[-1] == "block" else opened_by(code[header_start:i])
            if kind == "function":
                depth, j, last = 1, i + 1, line
                while j < len(code) and depth:
                    depth += {"{": 1, "}": -1}.get(code[j], 0)
                    last += code[j] == "\n"
                    j += 1
                length = last - line + 1
                if length > limit:
                    declaration = re.sub(r"\s+", " ", code[header_start:i]).strip()
                    declaration = re.sub(r"^(public|private|protected)\s*:\s*", "", declaration)
                    found.append((line, length, declaration))
                line, i, header_start = last, j, j
                continue
            scopes.append(kind)
            header_start = i + 1
        elif c in "};":
            if c == "}" and scopes:
                scopes.pop()
            header_start = i + 1
        i += 1
    return found


# --- the check --------------------------------------------------------------------------

def check(root):
    findings = []
    table = read_module_table(os.path.join(root, "docs", "architecture.md"))
    order = {module: position for position, (module, _) in enumerate(table)}
    documented_uses = dict(table)
    src = os.path.join(root, "src")
    files = source_files(src)
    rel = lambda path: os.path.join("src", path)

    for module, used in table:
        for other in used:
            if other not in order:
                findings.append(f"docs/architecture.md: {module} uses {other}, which is not a module of the table")
            elif order[other] >= order[module]:
                findings.append(f"docs/architecture.md: {module} uses {other}, listed at or after it")

    for directory in sorted({module_of(p) for p in files if os.sep in p}):
        if directory not in order:
            findings.append(f"src/{directory}/: not in the module order of docs/architecture.md")

    included = collections.defaultdict(set)
    unit_edges = collections.defaultdict(set)
    edge_lines = collections.defaultdict(list)
    for path, line, spelled, target, module in includes(files, order):
        source_module = module_of(path)
        if module is None or source_module not in order:
            continue
        if module != source_module:
            included[source_module].add(module)
            if order[module] > order[source_module]:
                findings.append(f"{rel(path)}:{line}: includes {spelled}: {module} is above {source_module} "
                                f"in the module order (docs/architecture.md)")
        if target is not None and unit_of(target) != unit_of(path):
            unit_edges[unit_of(path)].add(unit_of(target))
            edge_lines[(unit_of(path), unit_of(target))].append(f"{rel(path)}:{line} includes {target}")

    for component in cycles(unit_edges):
        members = set(component)
        how = [where for (a, b), wheres in sorted(edge_lines.items()) if a in members and b in members
               for where in wheres]
        findings.append("include cycle between " + ", ".join(rel(u) for u in component) + ": " + "; ".join(how))

    for module, _ in table:
        calls = module_links(src, module, order)
        if calls is None:
            continue
        for names in calls:
            if names != sorted(names, key=order.get):
                findings.append(f"src/{module}/CMakeLists.txt: links {' '.join('kopt_' + n for n in names)}: "
                                f"not in the module order of docs/architecture.md")
        linked = {name for names in calls for name in names}
        uses = set(documented_uses[module])
        for missing in sorted(included[module] - linked):
            findings.append(f"src/{module}/CMakeLists.txt: {module} includes {missing} but does not link kopt_{missing}")
        for extra in sorted(linked - included[module]):
            findings.append(f"src/{module}/CMakeLists.txt: {module} links kopt_{extra} but includes nothing of it")
        if linked != uses:
            findings.append(f"docs/architecture.md: {module} uses {', '.join(sorted(uses)) or '-'}, but "
                            f"src/{module}/CMakeLists.txt links {', '.join(sorted(linked)) or 'none'}")

    for path, text in sorted(files.items()):
        if module_of(path) in FUNCTION_LIMITED_MODULES:
            for line, length, declaration in long_functions(text, FUNCTION_LINE_LIMIT):
                findings.append(f"{rel(path)}:{line}: a function of {length} lines (at most {FUNCTION_LINE_LIMIT} "
                                f"in {', '.join(FUNCTION_LIMITED_MODULES)}): {declaration[:120]}")
    findings.extend(merge_leftovers(root))
    return findings


def merge_leftovers(root):
    """The lines a merge left unresolved (<<<<<<< or >>>>>>> opening a line) in the files git
    tracks: a document once shipped with both sides of a conflict."""
    listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True)
    if listed.returncode != 0:
        return []  # not a git checkout (an unpacked copy): nothing to compare with
    found = []
    for name in listed.stdout.decode(errors="replace").split("\0"):
        path = os.path.join(root, name)
        if not name or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            for number, line in enumerate(f, 1):
                if line.startswith((b"<<<<<<< ", b">>>>>>> ")):
                    found.append(f"{name}:{number}: a merge conflict left unresolved")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the repository (default: the one this script is in)")
    args = parser.parse_args()
    try:
        findings = check(os.path.abspath(args.root))
    except (table_error, OSError) as e:
        print(f"check_structure: {e}", file=sys.stderr)
        return 2
    for finding in findings:
        print(finding)
    if findings:
        print(f"check_structure: {len(findings)} finding(s); the rules are in docs/architecture.md", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
