#pragma once
// The H200 as `kopt preflight` found it on 2026-12-01, for pipelines run through a recorded worker.

#include <string>

#include "env/gpu_probe.h"

namespace kopt::pipeline {

inline env::gpu_probe_result recorded_h200() {
  env::gpu_probe_result gpus;
  gpus.driver_loaded = true;
  gpus.driver_cuda_version = 13000;
  gpus.driver_version = "580.159.04";
  env::gpu_device h200;
  h200.name = "NVIDIA H200";
  h200.uuid = "GPU-6cca5009-a117-c862-2ad9-de5522b52f84";
  h200.capability = {9, 0};
  h200.multiprocessors = 132;
  h200.memory_bytes = 150109880320;
  h200.l2_bytes = 62914560;
  gpus.devices.push_back(h200);
  return gpus;
}

// `count` of those H200s in one host, alike in all but ordinal and UUID.
inline env::gpu_probe_result recorded_h200s(int count) {
  env::gpu_probe_result gpus = recorded_h200();
  const env::gpu_device first = gpus.devices.front();
  gpus.devices.clear();
  for (int i = 0; i < count; ++i) {
    env::gpu_device d = first;
    d.ordinal = i;
    d.uuid = first.uuid.substr(0, first.uuid.size() - 2) + std::to_string(10 + i);
    gpus.devices.push_back(d);
  }
  return gpus;
}

}  // namespace kopt::pipeline
