#pragma once
// run_manifest.json's content read by the one checking reader (core/document.h): every field
// of the manifest's structs, by name and type, each refusal naming the field
// (iterations[2].median_ci95_ms[0]); then what the loop and the report take for granted when
// they use it: iterations numbered v0, v1, ... in order, a best, parents and chosen candidates
// that name what is there, intervals of two numbers, step times that are numbers. The writer
// is derived from the same description.

#include "core/json_io.h"
#include "loop/run_records.h"

namespace kopt::loop {

// `document`: the manifest without its schema and checksum (read_run_manifest checks those). A
// field that a manifest of schema v1, or an early v2, was written without is read as the writer
// then left it (empty). Throws document_error naming the first field that is wrong.
run_manifest manifest_from_fields(json document);

// The manifest's fields as the reader above reads them (no schema, no checksum).
json manifest_fields(const run_manifest& manifest);

}  // namespace kopt::loop
