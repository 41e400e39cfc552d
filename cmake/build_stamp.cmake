# Writes the build stamp header (the commit kopt is built from and the build's date) for
# `kopt --version`. Run at every build (src/core/CMakeLists.txt), it rewrites the header only
# when the stamp changed, so an unchanged tree rebuilds nothing.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -P build_stamp.cmake
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(commit "${commit}+changes")
  endif()
endif()
string(TIMESTAMP date "%Y-%m-%d" UTC)
set(text "#pragma once\n// Written by cmake/build_stamp.cmake at build time.\nnamespace kopt {\ninline constexpr const char* build_commit = \"${commit}\";\ninline constexpr const char* build_date = \"${date}\";\n}  // namespace kopt\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
