# Wraps a text file into a C++ header as a raw string literal, so the static kopt binary carries
# its data files:
#   cmake -DINPUT=in.json -DHEADER=out.h -DNAMESPACE=kopt::analyze -DNAME=var -P embed_text.cmake
file(READ "${INPUT}" text)
string(FIND "${text}" ")kopt_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )kopt_embed\"")
endif()
file(WRITE "${HEADER}" "#pragma once\n// Generated from ${INPUT}; do not edit.\nnamespace ${NAMESPACE} {\ninline constexpr const char* ${NAME} = R\"kopt_embed(${text})kopt_embed\";\n}\n")
