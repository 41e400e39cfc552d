#pragma once
// Values of ncu's CSV pages as numbers in SI base units.
//
// ncu prints counts with thousands separators ("134,225,152") and, unless exported with
// `--print-units base`, scales each value to a readable unit ("us", "Mbyte", "Tbyte/s",
// "Kbyte/cycle", "Ghz"). kopt converts every value through its unit to second, byte and hertz
// so that an auto-scaled export and a base-unit export of one report give the same numbers.

#include <optional>
#include <string>
#include <string_view>

namespace kopt::profile {

// "134,225,152" -> 134225152, "0.97" -> 0.97, "1e+06" -> 1000000; nullopt for text
// ("(512, 1, 1)", "n/a", "PolicySpread", "").
std::optional<double> parse_metric_number(std::string_view text);

struct unit_conversion {
  double factor = 1.0;     // multiply the exported value by this
  std::string base_unit;   // the unit after conversion ("byte", "second", "byte/second", "%")
};

// Decimal prefixes as ncu uses them (1 Kbyte = 1000 byte). Units without a scale ("%",
// "cycle", "inst", "sector", "register/thread") and units kopt does not know convert with
// factor 1. A compound unit
// converts its numerator and denominator: "sector/us" -> 1e6 sector/second,
// "%/Kbyte" -> 1e-3 %/byte.
unit_conversion convert_unit(std::string_view unit);

// Whether `--print-units base` writes this unit: every unit that needs no scaling, and "ns",
// ncu's base for durations.
bool is_ncu_base_unit(std::string_view unit);

}  // namespace kopt::profile
