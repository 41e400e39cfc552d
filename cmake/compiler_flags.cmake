# Flags shared by every kopt target, applied through this interface library.
add_library(kopt_flags INTERFACE)
target_compile_options(kopt_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                            -Wno-sign-conversion
                                            -Wno-missing-field-initializers)
# GCC 12 reports -Wrestrict inside libstdc++'s std::string at -O3 (GCC bug 105651), a false
# positive that would fail warnings-as-errors builds.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(kopt_flags INTERFACE -Wno-restrict)
endif()
if(KOPT_WARNINGS_AS_ERRORS)
  target_compile_options(kopt_flags INTERFACE -Werror)
endif()
if(KOPT_SANITIZE)
  target_compile_options(kopt_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(kopt_flags INTERFACE -fsanitize=address,undefined)
else()
  # The C++ runtime travels inside the binary; glibc stays dynamic (it is newer on the GPU
  # machine than here, so symbols resolve).
  target_link_options(kopt_flags INTERFACE -static-libstdc++ -static-libgcc)
endif()
