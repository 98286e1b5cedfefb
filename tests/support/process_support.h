// SPDX-License-Identifier: MIT
// Small helpers for tests that run the built programs through sh and read what they wrote.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace devicebench::testing {

// The whole file's bytes ("" when it cannot be opened).
inline std::string slurp(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// `s` as one POSIX sh word: in single quotes, each ' written as '\''.
inline std::string shellQuote(const std::string &s) {
    std::string q = "'";
    for (char ch : s) {
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    }
    return q + "'";
}

} // namespace devicebench::testing
