// SPDX-License-Identifier: MIT
// Text from another machine (a record's host name, labels, notes, script arguments, a published
// row) made safe to show beside our own: its control characters and Unicode's bidirectional
// formatting characters are shown as [U+XXXX], never obeyed, and text holding right-to-left
// letters is isolated (FSI ... PDI) so that it cannot reorder the sentence around it
// (docs/ROBUSTNESS.md, "Text from another machine"). Header-only: the driver check compiles
// without CMake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace devicebench {
namespace display_detail {

// The code point at text[i] and its length in bytes; a byte that starts no valid sequence is
// itself (length 1), so that nothing is lost.
inline std::uint32_t codePointAt(const std::string &text, std::size_t i, std::size_t *length) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    std::size_t n = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (n == 0 || i + n > text.size()) {
        *length = 1;
        return c;
    }
    std::uint32_t point = n == 1 ? c : n == 2 ? (c & 0x1FU) : n == 3 ? (c & 0x0FU) : (c & 0x07U);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0U) != 0x80U) {
            *length = 1;
            return c;
        }
        point = (point << 6) | (byte(i + k) & 0x3FU);
    }
    *length = n;
    return point;
}

// Controls (C0 but the space, DEL, C1) and the bidirectional formatting characters: ALM, LRM,
// RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
inline bool isHiddenControl(std::uint32_t p) {
    return p < 0x20 || (p >= 0x7F && p <= 0x9F) || p == 0x061C || p == 0x200E || p == 0x200F ||
           (p >= 0x202A && p <= 0x202E) || (p >= 0x2066 && p <= 0x2069);
}

// Letters written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, ... and their
// presentation forms; the supplementary planes' right-to-left scripts).
inline bool isRightToLeft(std::uint32_t p) {
    return (p >= 0x0590 && p <= 0x08FF) || (p >= 0xFB1D && p <= 0xFDFF) ||
           (p >= 0xFE70 && p <= 0xFEFF) || (p >= 0x10800 && p <= 0x10FFF) ||
           (p >= 0x1E800 && p <= 0x1EFFF);
}

} // namespace display_detail

// `text` with every control and bidirectional formatting character shown as [U+XXXX] (an escape
// as "\x1B" would read as the characters themselves); at most `maxBytes` bytes of the text
// (never a character cut) then "...".
inline std::string visibleText(const std::string &text, std::size_t maxBytes = std::string::npos) {
    std::string out;
    char code[16];
    std::size_t i = 0;
    while (i < text.size() && i < maxBytes) {
        std::size_t length = 1;
        const std::uint32_t point = display_detail::codePointAt(text, i, &length);
        if (i + length > maxBytes)
            break;
        if (display_detail::isHiddenControl(point)) {
            std::snprintf(code, sizeof code, "[U+%04X]", static_cast<unsigned>(point));
            out += code;
        } else {
            out.append(text, i, length);
        }
        i += length;
    }
    return i < text.size() ? out + "..." : out;
}

// visibleText(text), isolated (U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE)
// when it holds right-to-left letters: shown beside our own text it keeps its own direction and
// leaves the sentence's order alone. Text without them is returned as visibleText gives it.
inline std::string displayText(const std::string &text) {
    std::string visible = visibleText(text);
    for (std::size_t i = 0; i < visible.size();) {
        std::size_t length = 1;
        if (display_detail::isRightToLeft(display_detail::codePointAt(visible, i, &length)))
            return "\u2068" + visible + "\u2069";
        i += length;
    }
    return visible;
}

} // namespace devicebench
