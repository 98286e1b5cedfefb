// SPDX-License-Identifier: MIT
// Test support: a CSV text read back into lines and fields, for the tests of the CSV writers.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace devicebench::testing {

inline std::vector<std::string> splitLines(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// Splits one CSV line (RFC 4180, no embedded line breaks here).
inline std::vector<std::string> fieldsOf(const std::string &line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (ch == '"') {
            quoted = !quoted;
        } else if (ch == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += ch;
        }
    }
    return fields;
}

} // namespace devicebench::testing
