#include "validate/tolerance.h"

#include <gtest/gtest.h>

namespace kopt::validate {
namespace {

kernel::element_type type(const char* name) { return *kernel::element_type_by_name(name); }

TEST(Tolerance, DefaultsByElementType) {
  EXPECT_EQ(default_tolerance(type("float32")).atol, 1e-4);
  EXPECT_EQ(default_tolerance(type("float32")).rtol, 1e-3);
  EXPECT_EQ(default_tolerance(type("float16")).atol, 1e-2);
  EXPECT_EQ(default_tolerance(type("bfloat16")).rtol, 1e-2);
  EXPECT_EQ(default_tolerance(type("float64")).atol, 1e-8);
  EXPECT_EQ(default_tolerance(type("float64")).rtol, 1e-6);
  EXPECT_TRUE(default_tolerance(type("int32")).exact);
  EXPECT_TRUE(default_tolerance(type("bool")).exact);
  EXPECT_EQ(default_tolerance(type("float32")).atol_source, "default for float32");
}

TEST(Tolerance, FlagsBeatReferenceBeatsDefault) {
  tolerance_overrides overrides;
  overrides.reference_atol = 1e-6;
  overrides.reference_rtol = 2e-3;
  overrides.flag_rtol = 5e-2;
  const tolerance t = resolve_tolerance(type("float32"), overrides);
  EXPECT_EQ(t.atol, 1e-6);
  EXPECT_EQ(t.atol_source, "reference module");
  EXPECT_EQ(t.rtol, 5e-2);
  EXPECT_EQ(t.rtol_source, "--rtol");
}

TEST(Tolerance, IntegersStayExactUnlessAFlagSaysOtherwise) {
  tolerance_overrides from_reference;
  from_reference.reference_atol = 0.5;
  EXPECT_TRUE(resolve_tolerance(type("int32"), from_reference).exact);
  tolerance_overrides from_flag;
  from_flag.flag_atol = 1;
  const tolerance t = resolve_tolerance(type("int32"), from_flag);
  EXPECT_FALSE(t.exact);
  EXPECT_EQ(t.atol, 1);
}

}  // namespace
}  // namespace kopt::validate
