#pragma once
// A rule's plain metric reads as a table: which field holds which ncu metric. Where a field
// names two metrics, the first one the report holds wins (ncu renamed some across versions).

#include <initializer_list>
#include <optional>

#include "profile/raw_csv.h"

namespace kopt::analyze::rules {

template <class Part>
struct metric_read {
  std::optional<double> Part::*field;
  const char* metric;
};

template <class Part>
void read_metrics(const profile::kernel_launch& k, Part& part,
                  std::initializer_list<metric_read<Part>> reads) {
  for (const metric_read<Part>& r : reads) {
    if (!(part.*r.field)) part.*r.field = k.number(r.metric);
  }
}

}  // namespace kopt::analyze::rules
