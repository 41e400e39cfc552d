#pragma once
// Cryptographic digests as lower-case hex. SHA-256 keys caches; SHA-1 is what the Python
// toolkit's strategy fingerprints use, so memory files stay compatible.

#include <memory>
#include <string>
#include <string_view>

namespace kopt {

enum class digest_kind { sha1, sha256 };

class hasher {
 public:
  explicit hasher(digest_kind kind = digest_kind::sha256);
  ~hasher();
  hasher(const hasher&) = delete;
  hasher& operator=(const hasher&) = delete;

  hasher& update(std::string_view bytes);
  // Adds a length prefix so that ("ab","c") and ("a","bc") hash differently.
  hasher& update_field(std::string_view bytes);
  std::string hex_digest();

 private:
  struct state;
  std::unique_ptr<state> m_state;
};

std::string sha256_hex(std::string_view bytes);
// HMAC-SHA256 of `text` under `key`, as lower-case hex.
std::string hmac_sha256_hex(std::string_view key, std::string_view text);
std::string sha1_hex(std::string_view bytes);

}  // namespace kopt
