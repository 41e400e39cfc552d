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


def function_of(lines, name="long_one"):
    """A function whose body spans `lines` lines, braces included."""
    body = "".join(f"  total += {i};\n" for i in range(lines - 4))
    return f"int {name}() {{\n  int total = 0;\n{body}  return total;\n}}\n"


class planted_tree:
    """A repository with docs/architecture.md and src/{core,loop,cli} that keeps every rule."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        self.write("docs/architecture.md", ARCHITECTURE)
        self.write("src/core/CMakeLists.txt", "add_library(kopt_core STATIC base.cpp)\n")
        self.write("src/core/base.h", "#pragma once\nstruct base {};\n")
        self.write("src/core/base.cpp", '#include "core/base.h"\n')
        self.write("src/loop/CMakeLists.txt",
                   "add_library(kopt_loop STATIC step.cpp settings.cpp)\n"
                   "target_link_libraries(kopt_loop PUBLIC kopt_core)\n")
        self.write("src/loop/settings.h", '#pragma once\n#include "core/base.h"\nstruct settings { base b; };\n')
        self.write("src/loop/step.h", '#pragma once\n#include "loop/settings.h"\nvoid step(const settings&);\n')
        self.write("src/loop/step.cpp", '#include "loop/step.h"\n\nvoid step(const settings&) {}\n')
        self.write("src/cli/CMakeLists.txt",
                   "add_library(kopt_cli STATIC command.cpp)\n"
                   "target_link_libraries(kopt_cli PUBLIC kopt_core kopt_loop CLI11::CLI11)\n")
        self.write("src/cli/command.cpp", '#include "core/base.h"\n#include "loop/step.h"\n#include <vector>\n')

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

    def test_a_tree_that_keeps_the_rules_passes(self):
        self.assertEqual(self.tree.check(), (0, ""))

    def test_a_cycle_between_two_headers_fails_naming_both(self):
        self.tree.write("src/loop/settings.h", '#pragma once\n#include "loop/step.h"\nstruct settings {};\n')
        self.tree.write("src/loop/step.h", '#pragma once\n#include "loop/settings.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("include cycle between src/loop/settings, src/loop/step", out)
        self.assertIn("src/loop/settings.h:2 includes loop/step.h", out)
        self.assertIn("src/loop/step.h:2 includes loop/settings.h", out)

    def test_a_header_whose_types_a_lower_header_includes_while_its_source_includes_it_is_a_cycle(self):
        # step.h holds types that settings.h includes, and step.cpp includes settings.h: no file
        # includes itself, yet neither half can be read without the other.
        self.tree.write("src/loop/step.h", '#pragma once\nstruct step_outcome {};\n')
        self.tree.write("src/loop/settings.h", '#pragma once\n#include "loop/step.h"\nstruct settings {};\n')
        self.tree.write("src/loop/step.cpp", '#include "loop/step.h"\n#include "loop/settings.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("include cycle between src/loop/settings, src/loop/step", out)
        self.assertIn("src/loop/step.cpp:2 includes loop/settings.h", out)

    def test_an_include_that_climbs_the_module_order_fails_naming_the_file_and_line(self):
        self.tree.append("src/core/base.cpp", '#include "loop/step.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("src/core/base.cpp:2: includes loop/step.h: loop is above core in the module order", out)

    def test_a_generated_header_of_a_higher_module_climbs_too(self):
        self.tree.append("src/core/base.h", '#include "cli/generated_only.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("src/core/base.h:3: includes cli/generated_only.h: cli is above core", out)

    def test_an_include_of_a_module_not_linked_fails_naming_the_cmake_file(self):
        self.tree.write("src/loop/CMakeLists.txt", "add_library(kopt_loop STATIC step.cpp)\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("src/loop/CMakeLists.txt: loop includes core but does not link kopt_core", out)

    def test_a_link_to_a_module_never_included_fails(self):
        self.tree.write("src/cli/command.cpp", '#include "loop/step.h"\n')
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("src/cli/CMakeLists.txt: cli links kopt_core but includes nothing of it", out)

    def test_links_that_disagree_with_the_documented_uses_fail(self):
        self.tree.write("docs/architecture.md", ARCHITECTURE.replace("| core, loop |", "| loop |"))
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("docs/architecture.md: cli uses loop, but src/cli/CMakeLists.txt links core, loop", out)

    def test_a_documented_use_of_a_later_module_fails(self):
        self.tree.write("docs/architecture.md", ARCHITECTURE.replace("| iterations | core |", "| iterations | core, cli |"))
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("docs/architecture.md: loop uses cli, listed at or after it", out)

    def test_a_directory_the_order_does_not_list_fails(self):
        self.tree.write("src/extra/thing.h", "#pragma once\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("src/extra/: not in the module order of docs/architecture.md", out)

    def test_a_function_over_80_lines_in_a_limited_module_fails_and_one_of_80_passes(self):
        self.tree.append("src/loop/step.cpp", function_of(80, "just_fits"))
        self.assertEqual(self.tree.check(), (0, ""))
        self.tree.append("src/loop/step.cpp", function_of(81))
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("src/loop/step.cpp:84: a function of 81 lines", out)
        self.assertIn("int long_one()", out)
        self.assertNotIn("just_fits", out)

    def test_a_member_function_in_a_class_is_measured_and_braces_in_text_do_not_count(self):
        body = "".join(f'    s += "{{ {i}";  // }} {{\n' for i in range(81))
        self.tree.append("src/loop/step.cpp",
                         f"namespace kopt {{\nclass runner {{\n public:\n  void run() {{\n    std::string s;\n{body}  }}\n}};\n}}\n")
        code, out = self.tree.check()
        self.assertEqual(code, 1)
        self.assertIn("a function of 84 lines", out)
        self.assertIn("void run()", out)

    def test_a_long_function_outside_the_limited_modules_passes(self):
        self.tree.append("src/cli/command.cpp", function_of(200))
        self.assertEqual(self.tree.check(), (0, ""))

    def test_a_table_the_script_cannot_find_is_an_error_of_its_own(self):
        self.tree.write("docs/architecture.md", "# nothing here\n")
        code, _ = self.tree.check()
        self.assertEqual(code, 2)


if __name__ == "__main__":
    unittest.main()
