# Third-party libraries come from the distribution (scripts/setup.sh installs them).
# Everything is linked statically or used header-only so that a kopt built on the CPU
# machine runs on the GPU machine, where only glibc and the driver's libraries exist.
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt REQUIRED)
# Boost.Describe (header-only): the one field list a document's writer and reader come from.
find_package(Boost 1.81 REQUIRED CONFIG)

set(OPENSSL_USE_STATIC_LIBS TRUE)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)

find_package(Threads REQUIRED)

if(KOPT_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
