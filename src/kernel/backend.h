#pragma once
// Which toolchain a kernel file goes through: .py -> triton; .cu/.cuh -> cuda, or cutlass
// when it includes CUTLASS or CuTe headers; --backend overrides (and is checked).

#include <filesystem>
#include <optional>
#include <string_view>

#include <boost/describe/enum.hpp>

namespace kopt::kernel {

enum class backend { cuda, cutlass, triton };
BOOST_DESCRIBE_ENUM(backend, cuda, cutlass, triton)

std::string_view to_string(backend b);

// Throws kopt::error listing the valid names.
backend parse_backend_name(std::string_view name);

// --backend's value as a request: none for "" or "auto" (the Python toolkit's default: the file
// says), else parse_backend_name's.
std::optional<backend> parse_backend_request(std::string_view name);

// True when the source includes a CUTLASS or CuTe header (<cutlass/...>, "cute/...").
bool includes_cutlass_headers(std::string_view source);

// `source` is the file's text (unused for .py). Throws kopt::error for an unknown
// extension or an override that cannot apply (a .cu given --backend=triton, ...).
backend infer_backend(const std::filesystem::path& kernel_file, std::string_view source,
                      std::optional<backend> requested);

}  // namespace kopt::kernel
