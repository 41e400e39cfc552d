#pragma once
// Both sides' precision settings (EXPLOITS class 25, reference precision mismatch): a kernel that
// wins only because the reference ran in a slower precision mode than the kernel (TF32 off there,
// on here; another matmul precision; fast math in one build only), or the reverse, is flagged with
// both sides' settings in the result, never a silent speedup.
//
// A side that runs in kopt's Python runner (a `.py` reference, a Triton kernel) has torch's
// settings, as the runner saw them (harness::torch_facts); a side nvcc built (a `.cu` kernel or
// reference) has the float semantics its build asked for. A setting one side does not have is
// compared at its default (torch's, nvcc's): a `.cu` kernel built with fast math against a `.py`
// reference differs, as does a Triton kernel with TF32 on against a `.cu` reference.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "harness/runner_documents.h"

namespace kopt::pipeline {

struct precision_settings {
  std::string source;  // "torch" (kopt's Python runner) or "nvcc" (the build's flags and source)
  // torch's: none on a side nvcc built.
  std::optional<std::string> float32_matmul_precision;  // "highest", "high", "medium"
  std::optional<bool> tf32_matmul;                      // torch.backends.cuda.matmul.allow_tf32
  std::optional<bool> tf32_cudnn;                       // torch.backends.cudnn.allow_tf32
  std::optional<bool> fp16_reduced_precision_reduction;
  std::optional<bool> bf16_reduced_precision_reduction;
  // The side's process environment; none: unset. Both kinds of side (cuBLAS reads it).
  std::optional<std::string> nvidia_tf32_override;
  // nvcc's float semantics: none on a Python side.
  std::optional<bool> use_fast_math;
  std::optional<bool> ftz;        // flush denormals to zero
  std::optional<bool> prec_div;   // IEEE division
  std::optional<bool> prec_sqrt;  // IEEE square root
  std::optional<bool> fmad;       // multiply-adds contracted into FMA
};
BOOST_DESCRIBE_STRUCT(precision_settings, (),
                      (source, float32_matmul_precision, tf32_matmul, tf32_cudnn, fp16_reduced_precision_reduction,
                       bf16_reduced_precision_reduction, nvidia_tf32_override, use_fast_math, ftz, prec_div, prec_sqrt,
                       fmad))

// The two sides' settings and where they differ ("TF32 matmul: kernel on, reference off").
struct precision_record {
  precision_settings kernel;
  precision_settings reference;
  std::vector<std::string> differences;
};
BOOST_DESCRIBE_STRUCT(precision_record, (), (kernel, reference, differences))

// A Python side, from what its runner reported.
precision_settings torch_side_precision(const harness::torch_facts& torch);

// A side nvcc built: `build_flags` are its nvcc arguments (-D definitions included), `source` its
// text (a `#define __USE_FAST_MATH__` there asks what the flag asks), `nvidia_tf32_override` the
// variable as its process gets it.
precision_settings nvcc_side_precision(const std::vector<std::string>& build_flags, std::string_view source,
                                       const std::optional<std::string>& nvidia_tf32_override);

// Every setting whose value differs between the sides, each compared at its default where a side
// has none; empty when they agree.
std::vector<std::string> precision_differences(const precision_settings& kernel, const precision_settings& reference);

precision_record compare_precision(precision_settings kernel, precision_settings reference);

// The result's warning ("precision mismatch: ..."), none when the sides agree.
std::optional<std::string> precision_warning(const precision_record& record);

}  // namespace kopt::pipeline
