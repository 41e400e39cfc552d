#include "pipeline/bench_result.h"

namespace kopt::pipeline {

namespace {
constexpr const char* remedy = "it is damaged or from another kopt version: run kopt bench again";
}  // namespace

bench_result read_bench_result(const json& document, const std::string& where) {
  return read_document<bench_result>(document, where, remedy);
}

bench_result read_bench_result_file(const std::filesystem::path& path) {
  return read_document_file<bench_result>(path, remedy);
}

}  // namespace kopt::pipeline
