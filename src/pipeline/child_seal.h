#pragma once
// The seal on a measuring child's result (core/result_seal.h), as a worker uses it: a key for
// the child, handed over as its descriptor 3, and the child's result file read back only when
// its seal holds. Children whose result is not the verdict's (a Triton problem's setup(), or a
// child under ncu or compute-sanitizer, which need not pass descriptors on) are not sealed.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/json_io.h"
#include "core/result_seal.h"
#include "core/subprocess.h"

namespace kopt::pipeline {

class child_seal {
 public:
  explicit child_seal(bool wanted);

  // Adds the key's descriptor and the variable that names it to the child's request.
  void prepare(process_request& request) const;

  // The child's result: nothing when there is no file, or (with `forged` set) when the child
  // was sealed and the file's seal does not hold. Throws kopt::error for an unreadable document.
  std::optional<json> read(const std::filesystem::path& result_file, bool& forged) const;

  // The key ("" when unsealed), for what the child seals besides its result file.
  std::string key() const { return m_key ? m_key->key() : std::string(); }

 private:
  std::unique_ptr<result_key> m_key;  // null: unsealed
};

}  // namespace kopt::pipeline
