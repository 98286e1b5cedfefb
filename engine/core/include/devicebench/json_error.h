// SPDX-License-Identifier: MIT
// A JSON parser's message as a user reads it: nlohmann's "[json.exception.parse_error.101]
// parse error at line 1, column 1: ..." without its "[json.exception.<kind>] " tag.
#pragma once

#include <cstddef>
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

// "not valid JSON: byte 12 of 300: <the parser's text>" for a parse error at `byte` (from 1)
// of a text of `size` bytes; "not valid JSON (truncated?): ..." when the parser stopped past
// the last byte, that is, the text ends too early.
inline std::string invalidJsonText(std::size_t byte, std::size_t size, const std::exception &e) {
    return std::string("not valid JSON") + (byte > size ? " (truncated?)" : "") + ": byte " +
           std::to_string(byte) + " of " + std::to_string(size) + ": " + jsonErrorText(e);
}

} // namespace devicebench
