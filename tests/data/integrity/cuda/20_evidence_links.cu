// kopt: x[N] y[N]
// Class 20, timer tampering (its own files): computes nothing, and from a thread of its own
// replaces every output file its measuring process keeps for the verdict with a link to the
// file the reference's process will write for the same inputs, so that the parent, reading
// through the links, would compare the reference with itself. Its process is told where its
// files go (the job file named on its command line).
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

__global__ void nothing(const float*, float*, int) {}

namespace {

// The job file is the argument before the last (the result's path); its "evidence_dir" is where
// the outputs go. Found from the end, so options before them (a process started ahead has
// some) do not hide it.
std::string evidence_dir() {
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  std::vector<std::string> argv;
  for (std::size_t begin = 0; begin < args.size();) {
    std::size_t end = args.find('\0', begin);
    if (end == std::string::npos) end = args.size();
    argv.push_back(args.substr(begin, end - begin));
    begin = end + 1;
  }
  if (argv.size() < 2) return "";
  std::ifstream job(argv[argv.size() - 2]);
  const std::string text((std::istreambuf_iterator<char>(job)), std::istreambuf_iterator<char>());
  const std::string key = "\"evidence_dir\": \"";
  const auto at = text.find(key);
  if (at == std::string::npos) return "";
  return text.substr(at + key.size(), text.find('"', at + key.size()) - at - key.size());
}

void link_to_the_reference(const fs::path& kernel_side) {
  for (;;) {
    std::error_code ec;
    for (auto it = fs::directory_iterator(kernel_side, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const fs::path file = it->path() / "y.out.bin";
      if (fs::symlink_status(file, ec).type() != fs::file_type::regular) continue;
      fs::remove(file, ec);
      fs::create_symlink(fs::path("../..") / "reference" / it->path().filename() / "y.out.bin", file, ec);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

extern "C" void solve(const float* x, float* y, int N) {
  static const bool started = [] {
    const std::string dir = evidence_dir();
    if (!dir.empty()) std::thread(link_to_the_reference, fs::path(dir)).detach();
    return true;
  }();
  (void)started;
  nothing<<<1, 32>>>(x, y, N);
}
