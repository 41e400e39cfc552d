#include "pipeline/child_seal.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

constexpr int key_descriptor = 3;

}  // namespace

child_seal::child_seal(bool wanted) {
  if (wanted) m_key = std::make_unique<result_key>();
}

void child_seal::prepare(process_request& request) const {
  if (!m_key) return;
  request.pass_fds.emplace_back(m_key->read_fd(), key_descriptor);
  request.extra_env[result_key_fd_variable] = std::to_string(key_descriptor);
}

std::optional<json> child_seal::read(const fs::path& result_file, bool& forged) const {
  forged = false;
  std::error_code ec;
  if (!fs::exists(result_file, ec)) return std::nullopt;
  const std::string content = read_text_file(result_file, "measuring process's result");
  std::string text = content;
  if (m_key) {
    const auto checked = unsealed(m_key->key(), content);
    if (!checked) {
      forged = true;
      return std::nullopt;
    }
    text = *checked;
  }
  json document = json::parse(text, nullptr, false);
  if (document.is_discarded()) {
    throw error(fmt::format("the measuring process's result {} is not JSON (a kopt bug: report it)", result_file.string()));
  }
  return document;
}

}  // namespace kopt::pipeline
