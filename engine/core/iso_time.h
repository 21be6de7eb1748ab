// The time now as ISO 8601 UTC with milliseconds ("2026-12-03T18:26:34.554Z"), as the
// store stamps its rows and reports their export.
#pragma once

#include <string>

namespace clusterdesk {

std::string isoNowUtc();

}  // namespace clusterdesk
