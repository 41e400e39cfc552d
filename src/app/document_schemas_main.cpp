// kopt_document_schemas DIR: writes the JSON Schema of every document kopt exchanges
// (pipeline/documents.h) and the run folder's (loop/confirmation_record.h) into DIR as NAME.schema.json. The build runs it into share/kopt/schemas
// for the Python runner; run into docs/schemas when a document's shape changes on purpose.
#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/json_io.h"
#include "pipeline/documents.h"
#include "loop/confirmation_record.h"

int main(int argc, char** argv) {
  // An option (--help) is not a folder to write into.
  if (argc != 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: kopt_document_schemas DIR (the folder to write NAME.schema.json into)\n");
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    std::vector<kopt::pipeline::document_schema_entry> entries = kopt::pipeline::exchanged_document_schemas();
    for (auto& entry : kopt::loop::run_folder_document_schemas()) entries.push_back(std::move(entry));
    for (const auto& entry : entries) kopt::write_json_file(dir / (entry.name + ".schema.json"), entry.schema);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kopt_document_schemas: %s\n", e.what());
    return 2;
  }
  return 0;
}
