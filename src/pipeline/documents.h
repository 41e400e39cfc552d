#pragma once
// The documents kopt exchanges between its processes and with its Python runner, by name, each
// with its JSON Schema derived from its one definition (core/document_schema.h). The schemas
// are written beside the Python runner (share/kopt/schemas), whose reader checks what it reads
// against them, and kept in docs/schemas, where a test compares them: a document whose shape
// changes without a new schema version fails it.

#include <string>
#include <vector>

#include "core/json_io.h"

namespace kopt::pipeline {

struct document_schema_entry {
  std::string name;  // the file is NAME.schema.json
  json schema;
};

std::vector<document_schema_entry> exchanged_document_schemas();

}  // namespace kopt::pipeline
