#pragma once
// How a Triton tensor's fresh inputs are drawn for the timed calls: like the values setup()
// returned for the validation seeds, so that a kernel meets the kind of data its problem
// defines (indices stay in range, positive inputs stay positive) and yet never the same data
// twice. From the facts the problem step measured (triton_problem.py's value_facts):
//   at most 16 distinct values (a mask, a flag, a small alphabet): one of those values;
//   integers: uniform over [min, max];
//   floats that spread past three standard deviations on both sides (randn, say): normal
//   with their mean and spread; other floats (rand, say): uniform over [min, max).
// Pure; tested on its own.

#include "core/json_io.h"
#include "kernel/element_type.h"
#include "kernel/value_distribution.h"

namespace kopt::pipeline {

kernel::value_distribution fitted_distribution(const kernel::element_type& type, const json& facts);

}  // namespace kopt::pipeline
