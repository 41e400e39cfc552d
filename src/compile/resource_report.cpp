#include "compile/resource_report.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <regex>
#include <tuple>

#include "core/json_fields.h"
#include "core/text.h"

namespace kopt::compile {

namespace {

// The leading qualified name of an Itanium-mangled symbol ("_ZN7cutlass13device_kernelI..."
// -> "cutlass::device_kernel<...>"), for names the demangler gives up on (deep CUTLASS
// template instantiations).
std::string qualified_prefix(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0) return mangled;
  size_t pos = 2;
  const bool nested = pos < mangled.size() && mangled[pos] == 'N';
  if (nested) ++pos;
  std::string name;
  while (pos < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[pos])) != 0) {
    size_t digits_end = pos;
    while (digits_end < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[digits_end])) != 0) {
      ++digits_end;
    }
    const size_t length = std::stoul(mangled.substr(pos, digits_end - pos));
    if (digits_end + length > mangled.size()) return mangled;
    if (!name.empty()) name += "::";
    name += mangled.substr(digits_end, length);
    pos = digits_end + length;
    if (!nested) break;
  }
  if (name.empty()) return mangled;
  return pos < mangled.size() && mangled[pos] == 'I' ? name + "<...>" : name;
}

}  // namespace

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : qualified_prefix(mangled);
}

namespace {

std::int64_t number_before(const std::string& line, const std::regex& pattern) {
  std::smatch match;
  return std::regex_search(line, match, pattern) ? std::stoll(match[1].str()) : 0;
}

}  // namespace

std::vector<kernel_resources> parse_ptxas_resource_usage(std::string_view ptxas_output) {
  // ptxas prints, per function:
  //   ptxas info : Compiling entry function '_Z5smallPKfPfi' for 'sm_90a'
  //   ptxas info : Function properties for _Z5smallPKfPfi
  //       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info : Used 10 registers, used 0 barriers, 4096 bytes smem, 360 bytes cmem[0]
  // Non-entry (device) functions print "Function properties" without "Compiling entry".
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex properties(R"(Function properties for (\S+))");
  static const std::regex frame(R"((\d+) bytes stack frame)");
  static const std::regex spill_stores(R"((\d+) bytes spill stores)");
  static const std::regex spill_loads(R"((\d+) bytes spill loads)");
  static const std::regex registers(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex cmem(R"((\d+) bytes cmem\[0\])");
  static const std::regex cumulative(R"((\d+) bytes cumulative stack size)");

  std::vector<kernel_resources> kernels;
  kernel_resources* current = nullptr;
  bool in_current_properties = false;
  for (const std::string& line : split_lines(ptxas_output)) {
    std::smatch match;
    if (std::regex_search(line, match, entry)) {
      kernels.push_back({});
      current = &kernels.back();
      current->mangled_name = match[1].str();
      current->name = demangle(current->mangled_name);
      current->arch = match[2].str();
      in_current_properties = false;
      continue;
    }
    if (current == nullptr) continue;
    if (std::regex_search(line, match, properties)) {
      in_current_properties = match[1].str() == current->mangled_name;
      continue;
    }
    if (in_current_properties && line.find("bytes stack frame") != std::string::npos) {
      current->stack_frame_bytes = number_before(line, frame);
      current->spill_store_bytes = number_before(line, spill_stores);
      current->spill_load_bytes = number_before(line, spill_loads);
      continue;
    }
    if (std::regex_search(line, match, registers)) {
      current->registers = static_cast<int>(std::stoll(match[1].str()));
      current->barriers = static_cast<int>(number_before(line, barriers));
      current->static_shared_bytes = number_before(line, smem);
      current->constant_bytes = number_before(line, cmem);
      current->cumulative_stack_bytes = number_before(line, cumulative);
      // The "Used" line closes this entry's block.
      current = nullptr;
      in_current_properties = false;
    }
  }
  return kernels;
}

namespace {

// The keys of a kernel's entry in the compile cache and in `kopt compile --json`.
constexpr std::tuple resource_keys{
    json_field{"name", &kernel_resources::name},
    json_field{"mangled_name", &kernel_resources::mangled_name},
    json_field{"arch", &kernel_resources::arch},
    json_field{"registers_per_thread", &kernel_resources::registers},
    json_field{"barriers", &kernel_resources::barriers},
    json_field{"static_shared_bytes", &kernel_resources::static_shared_bytes},
    json_field{"constant_bytes", &kernel_resources::constant_bytes},
    json_field{"stack_frame_bytes", &kernel_resources::stack_frame_bytes},
    json_field{"spill_store_bytes", &kernel_resources::spill_store_bytes},
    json_field{"spill_load_bytes", &kernel_resources::spill_load_bytes},
    json_field{"cumulative_stack_bytes", &kernel_resources::cumulative_stack_bytes}};

}  // namespace

json to_json(const kernel_resources& r) {
  return fields_json(r, resource_keys);
}

kernel_resources kernel_resources_from_json(const json& v) {
  return fields_from<kernel_resources>(v, resource_keys);
}

}  // namespace kopt::compile
