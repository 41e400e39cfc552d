#include "cli/dimension_options.h"

#include "cli/dimension_args.h"
#include "cli/kernel_flags.h"
#include "cli/option_checks.h"

namespace kopt::cli {

void dimension_options::add_to(CLI::App& sub) {
  sub.allow_extras();
  sub.add_option("--dim", dims, "NAME=VALUE: set solve()'s scalar NAME (also names of kopt's flags)")
      ->allow_extra_args(false);
  sub.add_option("--ptr-size", ptr_size, "element count of buffers without an annotated size")
      ->check(at_least<std::int64_t>(0, "elements"));
}

void dimension_options::fill(pipeline::bench_target& target, const CLI::App& sub) const {
  target.dims = collect_dimension_args(sub.remaining(), dims, &sub);
  if (ptr_size > 0) target.ptr_size = ptr_size;
  target.own_flag_names = kopt_flag_names(sub);
}

}  // namespace kopt::cli
