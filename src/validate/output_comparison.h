#pragma once
// Comparing one output buffer of the kernel with the reference's, per DESIGN.md "What is
// compared": every element the reference wrote must match within tolerance (a NaN or a
// poison value where the reference has a number fails); every element the reference left
// untouched (still poison, bit for bit) must still hold its poison in the kernel's output.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "kernel/element_type.h"
#include "validate/tolerance.h"

namespace kopt::validate {

struct mismatch {
  std::size_t index = 0;
  double kernel_value = 0;
  double reference_value = 0;
  std::string what;  // "value", "NaN", "left as poison", "wrote outside the reference's extent"
};

struct output_comparison {
  std::string name;
  bool passed = false;
  std::size_t elements = 0;
  std::size_t compared = 0;          // elements the reference wrote
  std::size_t mismatches = 0;
  std::size_t unwritten = 0;         // reference wrote, kernel left poison
  std::size_t stray_writes = 0;      // reference left poison, kernel wrote
  std::size_t non_finite = 0;        // NaN or Inf where the reference has a finite number
  bool constant_output = false;      // the kernel's values are all equal, the reference's are not
  double constant_value = 0;         // the kernel's value, when constant_output
  double reference_low = 0;          // the reference's smallest and largest compared values
  double reference_high = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;          // |kernel - reference| / |reference| over nonzero references
  double mean_abs_error = 0;         // over compared elements with finite values
  std::vector<mismatch> first_mismatches;  // up to 5, in index order
  tolerance used;

  // "C: 12 of 1,048,576 elements differ; first at [4095]: kernel 0.51 vs reference 0.52 ..."
  std::string summary() const;

  // The class of a failed comparison, which starts the verdict's line: "no write",
  // "partial write", "out of bounds", "NaN/Inf", "constant output" or "wrong values".
  std::string failure_class() const;
  // "<class>: <summary>"
  std::string verdict() const;
};

// `poison_bits` is the pattern every element held before the run (per element, as
// element_bits returns it). Both spans hold `elements` elements of `type`. The comparison
// runs on up to `threads` threads (0: the machine's hardware threads); the result is the same
// whatever the count.
output_comparison compare_output(const std::string& name, const kernel::element_type& type,
                                 std::span<const std::byte> kernel_output,
                                 std::span<const std::byte> reference_output, std::uint64_t poison_bits,
                                 const tolerance& tol, unsigned threads = 0);

json to_json(const output_comparison& c);

}  // namespace kopt::validate
