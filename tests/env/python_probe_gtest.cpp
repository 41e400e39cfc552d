#include "env/python_probe.h"

#include <gtest/gtest.h>

namespace kopt::env {
namespace {

TEST(PythonProbe, ReadsAFullReport) {
  const auto r = parse_python_probe(
      "some warning printed by an import\n"
      "KOPT_PROBE {\"python\": \"3.12.3\", \"executable\": \"/usr/bin/python3\", \"torch\": \"2.11.0+cu130\", "
      "\"torch_cuda\": \"13.0\", \"torch_cuda_available\": true, \"triton\": \"3.6.0\"}\n");
  EXPECT_TRUE(r.python_found);
  EXPECT_EQ(r.python_version, "3.12.3");
  ASSERT_TRUE(r.torch_version.has_value());
  EXPECT_EQ(*r.torch_version, "2.11.0+cu130");
  EXPECT_EQ(r.torch_cuda_version, "13.0");
  EXPECT_TRUE(r.torch_cuda_available);
  ASSERT_TRUE(r.triton_version.has_value());
  EXPECT_EQ(*r.triton_version, "3.6.0");
}

TEST(PythonProbe, KeepsImportErrors) {
  const auto r = parse_python_probe(
      "KOPT_PROBE {\"python\": \"3.11.7\", \"executable\": \"/x/python3\", "
      "\"torch_error\": \"ModuleNotFoundError: No module named 'torch'\", "
      "\"triton_error\": \"ModuleNotFoundError: No module named 'triton'\"}\n");
  EXPECT_TRUE(r.python_found);
  EXPECT_FALSE(r.torch_version.has_value());
  EXPECT_EQ(r.torch_problem, "ModuleNotFoundError: No module named 'torch'");
  EXPECT_FALSE(r.triton_version.has_value());
}

TEST(PythonProbe, NoReportIsAProblem) {
  const auto r = parse_python_probe("Traceback (most recent call last): ...\n");
  EXPECT_FALSE(r.python_found);
  EXPECT_FALSE(r.problem.empty());
}

TEST(PythonProbe, ProbesThisMachinesPython) {
  const auto r = probe_python();
  EXPECT_TRUE(r.python_found) << r.problem;
  EXPECT_FALSE(r.python_version.empty());
}

}  // namespace
}  // namespace kopt::env
