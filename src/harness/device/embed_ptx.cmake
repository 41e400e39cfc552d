# Wraps a PTX file into a C++ header as a raw string: cmake -DPTX=in.ptx -DHEADER=out.h -DNAME=var -P embed_ptx.cmake
file(READ "${PTX}" text)
file(WRITE "${HEADER}" "#pragma once\n// Generated from ${PTX}; do not edit.\nnamespace kopt::harness {\ninline constexpr const char* ${NAME} = R\"ptx(${text})ptx\";\n}\n")
