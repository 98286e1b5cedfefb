// SPDX-License-Identifier: MIT
// Command-line numbers of the measuring programs in bench/ (plain C++; header only).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace devicebench::bench {

// `value` of option `flag` as a whole number in 1..max; exits with status 2 and a message naming
// both otherwise.
inline int positiveWholeNumber(const char *flag, const char *value, long max = 100000) {
    char *end = nullptr;
    const long v = std::strtol(value, &end, 10);
    if (end == value || *end != '\0' || v <= 0 || v > max) {
        std::fprintf(stderr, "%s: not a whole number from 1 to %ld: '%s'\n", flag, max, value);
        std::exit(2);
    }
    return static_cast<int>(v);
}

} // namespace devicebench::bench
