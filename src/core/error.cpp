#include "core/error.h"

#include <utility>

namespace kopt {

error::error(std::string headline, std::string detail)
    : std::runtime_error(headline), m_headline(std::move(headline)), m_detail(std::move(detail)) {}

}  // namespace kopt
