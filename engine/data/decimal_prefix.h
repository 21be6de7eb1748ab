// The number at the start of a span of text: the one decimal parser behind every CSV
// cell (parseDouble) and the block reader's scan, which parses a row's numbers in place
// without first cutting the row into fields.
#pragma once

#include <charconv>
#include <system_error>

// fast_float (Debian's libfast-float-dev) parses decimals about a third faster than
// libstdc++ 12's from_chars; both round correctly, so every value is the same either way.
#if __has_include(<fast_float/fast_float.h>)
#include <fast_float/fast_float.h>
#define CLUSTERDESK_FAST_FLOAT 1
#endif

namespace clusterdesk::data {

// from_chars (general format, no leading '+') on [begin, end): where the number ends and
// whether it parsed. std::from_chars reports a number beyond double's range as
// result_out_of_range, value untouched (parseDouble settles it); fast_float returns
// inf or 0.
inline std::from_chars_result decimalPrefix(const char* begin, const char* end, double& value)
{
#ifdef CLUSTERDESK_FAST_FLOAT
    const auto [ptr, ec] = fast_float::from_chars(begin, end, value);
    return {ptr, ec};
#else
    return std::from_chars(begin, end, value);
#endif
}

}  // namespace clusterdesk::data
