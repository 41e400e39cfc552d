// make_report_fixture WORK: runs the report's scripted loop (scripted_run.h) in the empty
// folder WORK and prints the run folder it wrote, to be copied into tests/data/report/.
#include <cstdio>
#include <exception>
#include <filesystem>

#include "scripted_run.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_report_fixture WORK (an empty folder)\n");
    return 2;
  }
  try {
    const std::filesystem::path work = std::filesystem::absolute(argv[1]);
    std::printf("%s\n", kopt::report::testing::write_scripted_run(work).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_report_fixture: %s\n", e.what());
    return 1;
  }
}
