# Flags shared by every kopt target, applied through this interface library.
add_library(kopt_flags INTERFACE)
target_compile_options(kopt_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                            -Wno-sign-conversion
                                            -Wno-missing-field-initializers)
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
