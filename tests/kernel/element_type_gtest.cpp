#include "kernel/element_type.h"

#include <gtest/gtest.h>

namespace kopt::kernel {
namespace {

std::string canonical(std::string_view spelling) {
  const auto type = find_element_type(spelling);
  return type ? std::string(type->name) : "<unknown>";
}

TEST(ElementType, FloatingTypesAndTheirAliases) {
  EXPECT_EQ(canonical("float"), "float32");
  EXPECT_EQ(canonical("double"), "float64");
  EXPECT_EQ(canonical("__half"), "float16");
  EXPECT_EQ(canonical("half"), "float16");
  EXPECT_EQ(canonical("__nv_bfloat16"), "bfloat16");
  EXPECT_EQ(canonical("nv_bfloat16"), "bfloat16");
}

TEST(ElementType, BuiltinIntegerKeywordsInAnyOrder) {
  EXPECT_EQ(canonical("char"), "int8");
  EXPECT_EQ(canonical("signed char"), "int8");
  EXPECT_EQ(canonical("unsigned char"), "uint8");
  EXPECT_EQ(canonical("short"), "int16");
  EXPECT_EQ(canonical("short int"), "int16");
  EXPECT_EQ(canonical("unsigned short"), "uint16");
  EXPECT_EQ(canonical("int"), "int32");
  EXPECT_EQ(canonical("signed"), "int32");
  EXPECT_EQ(canonical("unsigned"), "uint32");
  EXPECT_EQ(canonical("unsigned int"), "uint32");
  EXPECT_EQ(canonical("int unsigned"), "uint32");
  EXPECT_EQ(canonical("long"), "int64");
  EXPECT_EQ(canonical("long int"), "int64");
  EXPECT_EQ(canonical("long long"), "int64");
  EXPECT_EQ(canonical("long long int"), "int64");
  EXPECT_EQ(canonical("unsigned long"), "uint64");
  EXPECT_EQ(canonical("long unsigned int"), "uint64");
  EXPECT_EQ(canonical("unsigned long long"), "uint64");
}

TEST(ElementType, InvalidKeywordCombinationsAreUnknown) {
  EXPECT_EQ(canonical("long long long"), "<unknown>");
  EXPECT_EQ(canonical("signed unsigned"), "<unknown>");
  EXPECT_EQ(canonical("short long"), "<unknown>");
  EXPECT_EQ(canonical("long char"), "<unknown>");
  EXPECT_EQ(canonical("long double"), "<unknown>");
  EXPECT_EQ(canonical("float4"), "<unknown>");
  EXPECT_EQ(canonical("void"), "<unknown>");
  EXPECT_EQ(canonical(""), "<unknown>");
}

TEST(ElementType, FixedWidthNamesWithAndWithoutStd) {
  EXPECT_EQ(canonical("int8_t"), "int8");
  EXPECT_EQ(canonical("std::int8_t"), "int8");
  EXPECT_EQ(canonical("uint8_t"), "uint8");
  EXPECT_EQ(canonical("int16_t"), "int16");
  EXPECT_EQ(canonical("uint16_t"), "uint16");
  EXPECT_EQ(canonical("int32_t"), "int32");
  EXPECT_EQ(canonical("std::uint32_t"), "uint32");
  EXPECT_EQ(canonical("int64_t"), "int64");
  EXPECT_EQ(canonical("std::uint64_t"), "uint64");
  EXPECT_EQ(canonical("size_t"), "uint64");
  EXPECT_EQ(canonical("std::size_t"), "uint64");
  EXPECT_EQ(canonical("bool"), "bool");
}

TEST(ElementType, RecordsKindSizeAndTorchDtype) {
  const auto bf16 = *find_element_type("__nv_bfloat16");
  EXPECT_EQ(bf16.kind, element_kind::floating);
  EXPECT_EQ(bf16.size_bytes, 2);
  EXPECT_EQ(bf16.torch_dtype, "torch.bfloat16");
  const auto u8 = *find_element_type("unsigned char");
  EXPECT_EQ(u8.kind, element_kind::unsigned_integer);
  EXPECT_EQ(u8.size_bytes, 1);
  EXPECT_EQ(u8.torch_dtype, "torch.uint8");
  const auto b = *find_element_type("bool");
  EXPECT_EQ(b.kind, element_kind::boolean);
  EXPECT_EQ(b.torch_dtype, "torch.bool");
  EXPECT_EQ(find_element_type("double")->size_bytes, 8);
  EXPECT_EQ(find_element_type("long")->size_bytes, 8);  // LP64
}

TEST(ElementType, IntegerLimits) {
  EXPECT_EQ(find_element_type("int8_t")->min_value(), -128);
  EXPECT_EQ(find_element_type("int8_t")->max_value(), 127);
  EXPECT_EQ(find_element_type("uint8_t")->max_value(), 255);
  EXPECT_EQ(find_element_type("int")->min_value(), -2147483648LL);
  EXPECT_EQ(find_element_type("unsigned")->max_value(), 4294967295LL);
  EXPECT_EQ(find_element_type("int64_t")->max_value(), INT64_MAX);
  EXPECT_EQ(find_element_type("uint64_t")->max_value(), INT64_MAX);  // kopt counts in int64
  EXPECT_EQ(find_element_type("bool")->max_value(), 1);
}

TEST(ElementType, SupportedListNamesEverySpelling) {
  const std::string list = supported_type_list();
  for (const char* spelling : {"float", "double", "__half", "half", "__nv_bfloat16",
                               "nv_bfloat16", "int8_t", "unsigned char", "unsigned long long",
                               "size_t", "std::int32_t", "bool", "uint16"}) {
    EXPECT_NE(list.find(spelling), std::string::npos) << spelling;
  }
}

}  // namespace
}  // namespace kopt::kernel
