// SPDX-License-Identifier: MIT
// Lower case for the ASCII names the comparison matches (GPU names, devices, ".csv"), the same
// whatever the process locale.
#pragma once

#include <cctype>
#include <string>

namespace devicebench::detail {

// `text` with A-Z as a-z; other bytes (UTF-8 too) unchanged.
inline std::string lowerAscii(std::string text) {
    for (char &ch : text)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return text;
}

} // namespace devicebench::detail
