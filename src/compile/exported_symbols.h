#pragma once
// Whether a built library exports a function, read from its dynamic symbol table with nm (part
// of binutils, which the host compiler nvcc drives always comes with). The library is never
// loaded into kopt: loading would run the user's static constructors in kopt's process.

#include <filesystem>
#include <string>

namespace kopt::compile {

// True when `library` defines `name` as an exported function. Throws kopt::error when nm is
// missing or cannot read the file.
bool exports_function(const std::filesystem::path& library, const std::string& name);

}  // namespace kopt::compile
