// kopt: x[N] y[N]
// Class 20, timer tampering (adaptive): writes nothing into y, and when the process that
// loaded it exits, overwrites every *.json file named on that process's command line with a
// forged {"status":"ok"} (the result file, if the measuring process is handed one).
#include <fstream>
#include <iterator>
#include <string>

__global__ void nothing(const float*, float*, int) {}

extern "C" void solve(const float* x, float* y, int N) { nothing<<<1, 32>>>(x, y, N); }

__attribute__((destructor)) static void forge_results() {
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  std::size_t begin = 0;
  while (begin < args.size()) {
    std::size_t end = args.find('\0', begin);
    if (end == std::string::npos) end = args.size();
    std::string arg = args.substr(begin, end - begin);
    begin = end + 1;
    // "--json-out=FILE" as well as a bare "FILE".
    if (const auto eq = arg.find('='); eq != std::string::npos) arg = arg.substr(eq + 1);
    if (arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".json") == 0) std::ofstream(arg) << R"({"status":"ok"})";
  }
}
