#include "harness/elf_functions.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

namespace kopt::harness {
namespace {

// A copy of a `T` at `offset`, or nothing past the image's end.
template <typename T>
std::optional<T> read_at(std::string_view image, std::uint64_t offset) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

// The NUL-terminated string at `offset` of the string table `strings`; "" past its end.
std::string_view string_at(std::string_view image, const Elf64_Shdr& strings, std::uint32_t offset) {
  if (strings.sh_offset > image.size() || offset >= strings.sh_size) return {};
  const std::string_view table = image.substr(strings.sh_offset, strings.sh_size);
  if (offset >= table.size()) return {};
  const std::string_view rest = table.substr(offset);
  return rest.substr(0, rest.find('\0'));
}

void add_functions(std::string_view image, const Elf64_Shdr& symbols, const Elf64_Shdr& strings,
                   std::set<std::string>& names) {
  if (symbols.sh_entsize != sizeof(Elf64_Sym)) return;
  for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= symbols.sh_size; at += sizeof(Elf64_Sym)) {
    const auto symbol = read_at<Elf64_Sym>(image, symbols.sh_offset + at);
    if (!symbol) return;
    if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF) continue;
    if (const std::string_view name = string_at(image, strings, symbol->st_name); !name.empty()) names.emplace(name);
  }
}

}  // namespace

std::set<std::string> function_names_in_elf(std::string_view image) {
  std::set<std::string> names;
  const auto header = read_at<Elf64_Ehdr>(image, 0);
  if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64 ||
      header->e_ident[EI_DATA] != ELFDATA2LSB || header->e_shentsize != sizeof(Elf64_Shdr)) {
    return names;
  }
  const auto section = [&](std::uint64_t i) { return read_at<Elf64_Shdr>(image, header->e_shoff + i * sizeof(Elf64_Shdr)); };
  for (std::uint64_t i = 0; i < header->e_shnum; ++i) {
    const auto symbols = section(i);
    if (!symbols) break;
    if (symbols->sh_type != SHT_SYMTAB && symbols->sh_type != SHT_DYNSYM) continue;
    if (symbols->sh_link >= header->e_shnum) continue;
    if (const auto strings = section(symbols->sh_link)) add_functions(image, *symbols, *strings, names);
  }
  return names;
}

std::set<std::string> function_names_in_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return function_names_in_elf(image);
}

std::string without_internal_linkage(std::string_view name) {
  if (!name.starts_with("_Z")) return std::string(name);
  std::string result = "_Z";
  std::size_t at = 2;
  if (at < name.size() && name[at] == 'N') result += name[at++];
  // Components <L><length><identifier> until anything else (template arguments, parameters).
  const auto is_digit = [&](std::size_t i) { return i < name.size() && name[i] >= '0' && name[i] <= '9'; };
  while (at < name.size()) {
    const bool marked = name[at] == 'L' && is_digit(at + 1);
    if (!marked && !is_digit(at)) break;
    if (marked) ++at;
    std::size_t length = 0;
    const std::size_t digits_start = at;
    while (is_digit(at) && length < name.size()) length = length * 10 + static_cast<std::size_t>(name[at++] - '0');
    if (length > name.size() - at) return std::string(name);  // not a mangled name after all
    result.append(name.substr(digits_start, at - digits_start + length));
    at += length;
  }
  result.append(name.substr(at));
  return result;
}

std::set<std::string> kernel_names_in_file(const std::filesystem::path& path) {
  std::set<std::string> names = function_names_in_file(path);
  for (const std::string& name : std::set<std::string>(names)) names.insert(without_internal_linkage(name));
  return names;
}

}  // namespace kopt::harness
