// SPDX-License-Identifier: MIT
// A JSON parser's message as a user reads it: nlohmann's "[json.exception.parse_error.101]
// parse error at line 1, column 1: ..." without its "[json.exception.<kind>] " tag.
#pragma once

#include <exception>
#include <string>

namespace devicebench {

// `e.what()` without nlohmann's leading tag; any other message as it is.
inline std::string jsonErrorText(const std::exception &e) {
    std::string what = e.what();
    if (const auto pos = what.find("] ");
        what.rfind("[json.exception", 0) == 0 && pos != std::string::npos)
        what.erase(0, pos + 2);
    return what;
}

} // namespace devicebench
