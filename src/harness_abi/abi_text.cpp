#include "abi_text.h"

#include <cstdlib>
#include <cstring>

#include "kopt_harness_abi.h"

namespace kopt::harness_abi {

char* copy_out(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out != nullptr) std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

}  // namespace kopt::harness_abi

extern "C" void kopt_free(char* text) { std::free(text); }
