#!/usr/bin/env python3
"""scripts/check_structure.py on small planted trees: a tree that keeps the rules passes, and each
kind of breach (an include cycle, an include that climbs the module order, links that disagree
with includes or with the documented order, a directory the order does not list, a function
over the limit) fails naming the file. Run by ctest (label unit); standard library only."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "check_structure.py")

ARCHITECTURE = """\
# How it is built

## The modules, bottom up

| module | what it holds | uses |
|---|---|---|
| `core` | the base | — |
| `loop` | iterations | core |
| `cli` | the commands | core, loop |

## Documents
"""


# A tree that keeps every rule: core <- loop <- cli, each linking what it includes.
CLEAN_TREE = {
    "docs/architecture.md": ARCHITECTURE,
    "src/core/CMakeLists.txt": "add_library(kopt_core STATIC base.cpp)\n",
    "src/core/base.h": "#pragma once\nstruct base {};\n",
    "src/core/base.cpp": '#include "core/base.h"\n',
    "src/loop/CMakeLists.txt": "add_library(kopt_loop STATIC step.cpp settings.cpp)\n"
                               "target_link_libraries(kopt_loop PUBLIC kopt_core)\n",
    "src/loop/settings.h": '#pragma once\n#include "core/base.h"\nstruct settings { base b; };\n',
    "src/loop/step.h": '#pragma once\n#include "loop/settings.h"\nvoid step(const settings&);\n',
    "src/loop/step.cpp": '#include "loop/step.h"\n\nvoid step(const settings&) {}\n',
    "src/cli/CMakeLists.txt": "add_library(kopt_cli STATIC command.cpp)\n"
                              "target_link_libraries(kopt_cli PUBLIC kopt_core kopt_loop CLI11::CLI11)\n",
    "src/cli/command.cpp": '#include "core/base.h"\n#include "loop/step.h"\n#include <vector>\n',
}


def function_of(lines, name="long_one"):
    """A function whose body spans `lines` lines, braces included."""
    body = "".join(f"  total += {i};\n" for i in range(lines - 4))
    return f"int {name}() {{\n  int total = 0;\n{body}  return total;\n}}\n"


class planted_tree:
    """CLEAN_TREE in a temporary folder."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        for path, text in CLEAN_TREE.items():
            self.write(path, text)

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def append(self, path, text):
        with open(os.path.join(self.root, path), "a", encoding="utf-8") as f:
            f.write(text)

    def check(self):
        run = subprocess.run([sys.executable, SCRIPT, "--root", self.root], capture_output=True, text=True)
        return run.returncode, run.stdout

    def close(self):
        self.dir.cleanup()


class CheckStructure(unittest.TestCase):
    def setUp(self):
        self.tree = planted_tree()

    def tearDown(self):
        self.tree.close()

    def assert_fails_naming(self, *fragments):
        """The check fails (exit 1) and its output holds each fragment; returns the output."""
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        for fragment in fragments:
            self.assertIn(fragment, out)
        return out

    def test_a_tree_that_keeps_the_rules_passes(self):
        self.assertEqual(self.tree.check(), (0, ""))

    def test_a_cycle_between_two_headers_fails_naming_both(self):
        self.tree.write("src/loop/settings.h", '#pragma once\n#include "loop/step.h"\nstruct settings {};\n')
        self.tree.write("src/loop/step.h", '#pragma once\n#include "loop/settings.h"\n')
        self.assert_fails_naming("include cycle between src/loop/settings, src/loop/step",
                                 "src/loop/settings.h:2 includes loop/step.h",
                                 "src/loop/step.h:2 includes loop/settings.h")

    def test_a_header_whose_types_a_lower_header_includes_while_its_source_includes_it_is_a_cycle(self):
        # step.h holds types that settings.h includes, and step.cpp includes settings.h: no file
        # includes itself, yet neither half can be read without the other.
        self.tree.write("src/loop/step.h", '#pragma once\nstruct step_outcome {};\n')
        self.tree.write("src/loop/settings.h", '#pragma once\n#include "loop/step.h"\nstruct settings {};\n')
        self.tree.write("src/loop/step.cpp", '#include "loop/step.h"\n#include "loop/settings.h"\n')
        self.assert_fails_naming("include cycle between src/loop/settings, src/loop/step",
                                 "src/loop/step.cpp:2 includes loop/settings.h")

    def test_each_planted_breach_fails_naming_where(self):
        breaches = [
            ("an include that climbs the module order",
             lambda t: t.append("src/core/base.cpp", '#include "loop/step.h"\n'),
             "src/core/base.cpp:2: includes loop/step.h: loop is above core in the module order"),
            ("a generated header of a higher module",
             lambda t: t.append("src/core/base.h", '#include "cli/generated_only.h"\n'),
             "src/core/base.h:3: includes cli/generated_only.h: cli is above core"),
            ("an include of a module not linked",
             lambda t: t.write("src/loop/CMakeLists.txt", "add_library(kopt_loop STATIC step.cpp)\n"),
             "src/loop/CMakeLists.txt: loop includes core but does not link kopt_core"),
            ("a link to a module never included",
             lambda t: t.write("src/cli/command.cpp", '#include "loop/step.h"\n'),
             "src/cli/CMakeLists.txt: cli links kopt_core but includes nothing of it"),
            ("links that disagree with the documented uses",
             lambda t: t.write("docs/architecture.md", ARCHITECTURE.replace("| core, loop |", "| loop |")),
             "docs/architecture.md: cli uses loop, but src/cli/CMakeLists.txt links core, loop"),
            ("links written out of the module order",
             lambda t: t.write("src/cli/CMakeLists.txt", "add_library(kopt_cli STATIC command.cpp)\n"
                               "target_link_libraries(kopt_cli PUBLIC kopt_loop kopt_core)\n"),
             "src/cli/CMakeLists.txt: links kopt_loop kopt_core: not in the module order"),
            ("a documented use of a later module",
             lambda t: t.write("docs/architecture.md",
                               ARCHITECTURE.replace("| iterations | core |", "| iterations | core, cli |")),
             "docs/architecture.md: loop uses cli, listed at or after it"),
            ("a directory the order does not list",
             lambda t: t.write("src/extra/thing.h", "#pragma once\n"),
             "src/extra/: not in the module order of docs/architecture.md"),
        ]
        for what, plant, finding in breaches:
            with self.subTest(what):
                self.tree.close()
                self.tree = planted_tree()
                plant(self.tree)
                self.assert_fails_naming(finding)

    def test_a_function_over_80_lines_in_a_limited_module_fails_and_one_of_80_passes(self):
        self.tree.append("src/loop/step.cpp", function_of(80, "just_fits"))
        self.assertEqual(self.tree.check(), (0, ""))
        self.tree.append("src/loop/step.cpp", function_of(81))
        out = self.assert_fails_naming("src/loop/step.cpp:84: a function of 81 lines", "int long_one()")
        self.assertNotIn("just_fits", out)

    def test_a_member_function_in_a_class_is_measured_and_braces_in_text_do_not_count(self):
        body = "".join(f'    s += "{{ {i}";  // }} {{\n' for i in range(81))
        self.tree.append("src/loop/step.cpp",
                         f"namespace kopt {{\nclass runner {{\n public:\n  void run() {{\n    std::string s;\n{body}  }}\n}};\n}}\n")
        self.assert_fails_naming("a function of 84 lines", "void run()")

    def test_a_long_function_outside_the_limited_modules_passes(self):
        self.tree.append("src/cli/command.cpp", function_of(200))
        self.assertEqual(self.tree.check(), (0, ""))

    def test_a_table_the_script_cannot_find_is_an_error_of_its_own(self):
        self.tree.write("docs/architecture.md", "# nothing here\n")
        code, _ = self.tree.check()
        self.assertEqual(code, 2)


if __name__ == "__main__":
    unittest.main()
