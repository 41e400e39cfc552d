#include "core/hash.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <cstdio>

#include <fmt/format.h>

namespace kopt {

struct hasher::state {
  EVP_MD_CTX* context = nullptr;
};

namespace {
void check_openssl(int rc, const char* what) {
  if (rc != 1) {
    std::fprintf(stderr, "kopt: internal error: OpenSSL %s failed\n", what);
    std::abort();
  }
}
}  // namespace

hasher::hasher(digest_kind kind) : m_state(std::make_unique<state>()) {
  m_state->context = EVP_MD_CTX_new();
  if (m_state->context == nullptr) check_openssl(0, "EVP_MD_CTX_new");
  const EVP_MD* md = kind == digest_kind::sha1 ? EVP_sha1() : EVP_sha256();
  check_openssl(EVP_DigestInit_ex(m_state->context, md, nullptr), "DigestInit");
}

hasher::~hasher() { EVP_MD_CTX_free(m_state->context); }

hasher& hasher::update(std::string_view bytes) {
  check_openssl(EVP_DigestUpdate(m_state->context, bytes.data(), bytes.size()), "DigestUpdate");
  return *this;
}

hasher& hasher::update_field(std::string_view bytes) {
  update(fmt::format("{}:", bytes.size()));
  return update(bytes);
}

std::string hasher::hex_digest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  check_openssl(EVP_DigestFinal_ex(m_state->context, digest, &length), "DigestFinal");
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string sha256_hex(std::string_view bytes) {
  return hasher(digest_kind::sha256).update(bytes).hex_digest();
}

std::string sha1_hex(std::string_view bytes) {
  return hasher(digest_kind::sha1).update(bytes).hex_digest();
}

std::string hmac_sha256_hex(std::string_view key, std::string_view text) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  std::size_t length = 0;
  if (EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(),
                reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, sizeof mac, &length) == nullptr) {
    check_openssl(0, "EVP_Q_mac");
  }
  std::string hex;
  for (std::size_t i = 0; i < length; ++i) hex += fmt::format("{:02x}", mac[i]);
  return hex;
}

}  // namespace kopt
