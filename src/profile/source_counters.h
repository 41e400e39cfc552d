#pragma once
// ncu's source page with per-line counters (`--csv --page source --print-source cuda,sass`):
// the source lines of each profiled function with their warp stall samples. Only views that
// show SASS carry counters; the plain CUDA view (`--print-source cuda`) lists the text alone
// and parses to no lines.
//
// The page is a series of blocks, one per source file of a function:
//   "File Path","<path>"
//   "Function Name","<name>"
//   "Line No","Source","Address","Source","Warp Stall Sampling (All Samples)",...,"stall_long_sb",...
// then a row per source line (Line No set: counters summed over its instructions) followed by
// the SASS rows under it (Line No empty). A Triton kernel has a block for its own file and one
// for each Triton library file its code was inlined from. The blocks repeat for every profiled
// launch, so a function launched twice shows twice; its lines hold the sum of its launches.
// The source text is written unescaped (`"x = f("inf")"`): such lines are read with their
// quotes as text, and a row that still does not match its header's width (text holding `","`)
// is skipped rather than read into the wrong columns.

#include <string>
#include <string_view>
#include <vector>

namespace kopt::profile {

struct source_line {
  std::string file;                  // the block's File Path
  int line = 0;                      // 1-based line number in `file`
  std::string text;                  // the source text, trimmed
  double stall_samples = 0;          // [samples] Warp Stall Sampling (All Samples)
  double instructions_executed = 0;  // [warp instructions]
  std::string top_stall;             // the largest stall_* reason ("long_sb"); "" without samples
  double top_stall_samples = 0;      // [samples] of that reason
};

struct source_function {
  std::string name;                // Function Name as ncu prints it (demangled, with parameters)
  std::vector<source_line> lines;  // every counted source line, blocks in page order
  double stall_samples = 0;        // [samples] over all its lines
};

// Pure: text in, functions out. Rows outside a block, prose lines, and blocks whose header
// lacks the sample columns are skipped; a page without counters gives an empty vector.
std::vector<source_function> parse_source_counters(std::string_view text);

}  // namespace kopt::profile
