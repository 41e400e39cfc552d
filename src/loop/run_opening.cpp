#include "loop/run_opening.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "kernel/backend.h"
#include "kernel/flops_annotation.h"
#include "kernel/scalar_binding.h"
#include "loop/run_directory.h"
#include "loop/run_settings.h"
#include "memory/memory_location.h"
#include "profile/ncu_command.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

std::string file_sha256(const fs::path& file, const char* what) { return sha256_hex(read_text_file(file, what)); }

// Planned before any folder is made: a bad kernel or flag leaves nothing behind. The run's id is
// its folder's name, set once the folder exists.
run_manifest new_manifest(const loop_settings& s) {
  const kernel::kernel_plan plan = pipeline::plan_target(s.target);  // a bad kernel or flag fails here, before a GPU
  for (const kernel::check_shape& shape : s.check_shapes) {
    pipeline::bench_target at_shape = s.target;
    at_shape.dims = shape.dims;
    try {
      pipeline::plan_target(at_shape);  // and a --check-dims value the kernel cannot take
    } catch (const error& e) {
      throw error(fmt::format("--check-dims \"{}\": {}", shape.label, e.headline()), e.detail());
    }
  }
  run_manifest m;
  m.kopt_version = version_string;
  m.created_at = utc_timestamp();
  const fs::path run_kernel = s.run_kernel.empty() ? s.target.kernel : s.run_kernel;
  m.kernel = fs::absolute(run_kernel).string();
  if (!s.target.ref.empty()) {
    m.reference = fs::absolute(s.target.ref).string();
    const std::string reference = read_text_file(s.target.ref, "reference");
    m.frozen.reference_sha256 = sha256_hex(reference);
    // Its `kopt: flops=` is read at the run's end, for the speed-of-light bound: a mistake in it
    // is refused now, not after the iterations.
    kernel::annotated_flops(s.target.ref, reference, s.target.dims);
  }
  m.backend = std::string(kernel::to_string(plan.backend));
  m.arch = s.target.arch;
  m.op = s.op.empty() ? run_kernel.stem().string() : s.op;
  m.op_family = s.op_family;
  m.max_iterations = s.max_iterations;
  m.memory_db = memory::shown_location(s.memory_db.string());  // never its password
  m.frozen.tolerances = frozen_tolerances(s);
  m.frozen.dims = dimension_flags(s.target);
  m.frozen.check_dims = kernel::check_labels(s.check_shapes);
  m.frozen.check_problem_sha256.resize(m.frozen.check_dims.size());
  m.settings = frozen_settings(s);
  return m;
}

// "\"--rows=1000\", \"--cols=7\"": each shape quoted as it is given.
std::string shapes_text(const std::vector<std::string>& shapes) {
  std::vector<std::string> quoted;
  for (const auto& shape : shapes) quoted.push_back("\"" + shape + "\"");
  return join(quoted, ", ");
}

[[noreturn]] void moved(const std::string& what, const std::string& frozen, const std::string& now) {
  throw error(fmt::format("the run's {} is frozen at v0 ({}) but this call gives {}: the problem a version is judged "
                          "on cannot change within a run; pass the run's own, or start a new run without --run-dir",
                          what, frozen.empty() ? "none" : frozen, now.empty() ? "none" : now));
}

// A version may come in a file of its own (the Python toolkit's loop skill writes one per
// version); it must be a kernel of the run's backend. The problem it solves is checked when it
// is judged, as for every version.
void check_version_file(const run_manifest& m, const loop_settings& s) {
  const std::string file = fs::absolute(s.target.kernel).string();
  if (file == m.kernel) return;
  const kernel::backend backend = kernel_file_backend(s);
  if (kernel::to_string(backend) != m.backend) {
    throw error(fmt::format("{} is a {} kernel, but the run's ({}) is {}: every version of a run has the run's backend; "
                            "start a new run for it",
                            file, kernel::to_string(backend), m.kernel, m.backend));
  }
}

void check_frozen(const run_manifest& m, const loop_settings& s) {
  check_version_file(m, s);
  const std::string ref = s.target.ref.empty() ? "" : fs::absolute(s.target.ref).string();
  if (ref != m.reference) moved("reference", m.reference, ref);
  if (!ref.empty() && file_sha256(ref, "reference") != m.frozen.reference_sha256) {
    throw error(fmt::format("the reference {} changed since v0 (its SHA-256 differs): the reference defines the "
                            "answer and is frozen for the run; restore it, or start a new run",
                            ref));
  }
  if (dimension_flags(s.target) != m.frozen.dims) moved("dimensions", join(m.frozen.dims, " "), join(dimension_flags(s.target), " "));
  if (frozen_tolerances(s) != m.frozen.tolerances) moved("tolerances", m.frozen.tolerances, frozen_tolerances(s));
  if (kernel::check_labels(s.check_shapes) != m.frozen.check_dims) {
    moved("set of extra validation shapes (--check-dims)", shapes_text(m.frozen.check_dims),
          shapes_text(kernel::check_labels(s.check_shapes)));
  }
}

// --run-dir continues a run unless --new-run says it starts one: a folder without a manifest
// is a mistake (a mistyped path, a path relative to another folder) until said otherwise.
void check_run_dir_intent(const loop_settings& s, bool holds_run, bool preflight_folder) {
  if (s.new_run && s.run_dir.empty()) {
    throw error("--new-run names the folder where the new run starts: give it with --run-dir DIR");
  }
  if (s.run_dir.empty()) return;
  if (s.new_run && holds_run) {
    throw error(fmt::format("--new-run: {} already holds a run ({}): leave out --new-run to continue it, or name "
                            "another folder",
                            s.run_dir.string(), run_manifest_name));
  }
  // A folder that `--preflight-only` made holds no run yet: the run starts there (the Python
  // toolkit's users check the machine into the folder first, then run in it).
  if (!s.new_run && !holds_run && !preflight_folder) {
    throw error(fmt::format("--run-dir {} holds no run (no {}): give the folder kopt loop printed as \"run folder\", "
                            "or add --new-run to start a new run there",
                            s.run_dir.string(), run_manifest_name));
  }
}

}  // namespace

bool holds_preflight_only(const fs::path& dir) {
  std::error_code ec;
  bool any = false;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != preflight_check_json && name != preflight_check_md && name != loop_lock_name) return false;
    any = true;
  }
  return any && !ec;
}

void require_kernel_file(const loop_settings& s) {
  if (!fs::is_regular_file(s.target.kernel)) {
    throw error(fmt::format("{} not found: pass the kernel file the loop optimizes", s.target.kernel.string()));
  }
}

kernel::backend kernel_file_backend(const loop_settings& s) {
  return kernel::infer_backend(s.target.kernel, read_text_file(s.target.kernel, "kernel file"),
                               kernel::parse_backend_request(s.target.backend));
}

fs::path make_run_folder(const loop_settings& s) {
  if (s.run_dir.empty()) return create_run_dir(s.target.kernel);
  const fs::path dir = fs::absolute(s.run_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw error(fmt::format("cannot create the run folder {}: {}", dir.string(), ec.message()));
  return dir;
}

std::unique_ptr<file_lock> lock_run_folder(const fs::path& dir) {
  auto lock = std::make_unique<file_lock>(dir / loop_lock_name);
  if (!lock->try_lock()) {
    throw error(fmt::format("another kopt loop is working in {}: wait for it to finish, or use another --run-dir",
                            dir.string()));
  }
  return lock;
}

std::vector<std::string> dimension_flags(const pipeline::bench_target& target) {
  std::vector<std::string> flags;
  for (const auto& d : target.dims) flags.push_back(kernel::spell_dimension(d));
  return flags;
}

opened_run open_run(const loop_settings& s) {
  profile::check_capture_options(s.capture);  // ncu's options are refused before anything runs
  require_kernel_file(s);
  const bool resuming = !s.run_dir.empty() && fs::exists(s.run_dir / run_manifest_name);
  check_run_dir_intent(s, resuming, !s.run_dir.empty() && holds_preflight_only(s.run_dir));
  opened_run run;
  if (!resuming) run.manifest = new_manifest(s);
  run.dir = resuming ? fs::absolute(s.run_dir) : make_run_folder(s);
  run.lock = lock_run_folder(run.dir);
  if (resuming) {
    run.manifest = read_run_manifest(run.dir);
    check_frozen(run.manifest, s);
    // Not frozen: each call's --max-iterations is the run's from now on, so that a run that
    // has done its iterations goes on when it is raised, as the refusal says.
    run.manifest.max_iterations = s.max_iterations;
  } else {
    run.manifest.run_id = run.dir.filename().string();
  }
  run.fresh = run.manifest.iterations.empty();
  return run;
}

}  // namespace kopt::loop
