#include "memory/libpq_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include "core/error.h"

namespace kopt::memory {
namespace {

// $KOPT_LIBPQ names another (a libpq outside the loader's path), else the system's.
std::string library_name() {
  const char* named = std::getenv("KOPT_LIBPQ");
  return named != nullptr && *named != '\0' ? named : "libpq.so.5";
}

// Why the library could not be used, or nothing.
struct loaded {
  libpq_library functions{};
  std::optional<std::string> failure;
};

template <typename Function>
void resolve(void* handle, const char* name, Function& into, std::optional<std::string>& failure) {
  into = reinterpret_cast<Function>(dlsym(handle, name));
  if (into == nullptr && !failure) failure = fmt::format("{} has no {}", library_name(), name);
}

loaded load_once() {
  loaded l;
  // Kept loaded for the life of the process: connections may be closed at its very end.
  void* handle = dlopen(library_name().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    l.failure = why != nullptr ? why : library_name();
    return l;
  }
  boost::mp11::mp_for_each<boost::describe::describe_members<libpq_library, boost::describe::mod_public>>(
      [&](auto member) { resolve(handle, member.name, l.functions.*member.pointer, l.failure); });
  return l;
}

}  // namespace

const libpq_library& load_libpq(const std::string& memory) {
  static const loaded library = load_once();
  if (library.failure) {
    throw error(fmt::format("strategy memory {} is a PostgreSQL server, and libpq, which kopt needs to reach one, "
                            "cannot be loaded ({}): install it (Debian and Ubuntu: apt-get install libpq5; KOPT_LIBPQ "
                            "names one elsewhere), or give a SQLite --memory-db",
                            memory, *library.failure));
  }
  return library.functions;
}

}  // namespace kopt::memory
