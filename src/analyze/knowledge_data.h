#pragma once
// The knowledge files, embedded at build time (see CMakeLists.txt).

#include "analyze/knowledge_cuda_json.h"
#include "analyze/knowledge_cutlass_json.h"
#include "analyze/knowledge_triton_json.h"
