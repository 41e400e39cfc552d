#pragma once
// What a checking reader says of a document it refuses: the field (`kernel.samples_ms[3]`, ""
// for the whole text) and the problem, as one line. Callers that know where the document came
// from and what fixes it (run the command again, restore the file) wrap it with `in()`.

#include <string>

#include "core/error.h"

namespace kopt {

class document_error : public error {
 public:
  document_error(std::string field, std::string problem);

  const std::string& field() const { return m_field; }
  const std::string& problem() const { return m_problem; }

  // "WHERE: field F: PROBLEM; REMEDY" as a kopt::error (exit 2).
  error in(const std::string& where, const std::string& remedy) const;

 private:
  std::string m_field;
  std::string m_problem;
};

}  // namespace kopt
