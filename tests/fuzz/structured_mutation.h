#pragma once
// Mutants of real inputs for the fuzz driver, made two ways. A JSON document is mutated by its
// structure: a value of the wrong type at a field, a field deleted or one added, a number beyond
// a double (1e999), nesting 200,000 deep, a 100,000-element array, a 100,000-character string
// at a field; then, now and then, bytes flipped or the text cut short. A text page (ncu's CSV)
// is mutated by bytes: flipped, ranges cut or repeated, tricky tokens, long runs, a
// 30,000-character line, the text cut short. Each mutant names the mutations it carries.

#include <functional>
#include <random>
#include <string>

#include "core/json_io.h"

namespace kopt::fuzz {

struct mutant {
  std::string text;
  std::string mutations;  // "wrong_type(/iterations/1/tags) truncation", for a kept finding
};

// `seal`, when given, is applied to every mutant that is still JSON before it is written out
// (the run manifest's checksum recomputed, as an agent could), but for one in eight.
mutant mutate_json(const json& seed, std::mt19937_64& random, const std::function<void(json&)>& seal = {});

mutant mutate_text(const std::string& seed, std::mt19937_64& random);

}  // namespace kopt::fuzz
