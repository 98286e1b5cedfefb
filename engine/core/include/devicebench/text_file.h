// SPDX-License-Identifier: MIT
// A small text file read with the outcomes a user must be told apart (docs/ROBUSTNESS.md,
// "Broken is not missing"): absent; present but unreadable (the system's reason: permissions,
// a folder, an I/O error, too large); read, whose text the caller then checks and, when it is
// wrong, calls malformed, saying what is wrong and where (visibleExcerpt shows the text safely).
// Header-only: the driver check (scripts/preset.sh) compiles without CMake.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace devicebench {

enum class FileState { Absent, Unreadable, Read };

struct TextFile {
    FileState state = FileState::Absent;
    std::string text;   // Read: the file's bytes
    std::string reason; // Unreadable: why ("Permission denied", "a folder, not a file", ...)
};

// Reads `path` whole; a file over `maxBytes` is Unreadable ("larger than N bytes"). Never throws
// for the file's sake.
inline TextFile readTextFile(const std::string &path, std::size_t maxBytes) {
    TextFile file;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT && errno != ENOTDIR) {
            file.state = FileState::Unreadable;
            file.reason = std::strerror(errno);
        }
        return file;
    }
    file.state = FileState::Unreadable;
    if (S_ISDIR(st.st_mode)) {
        file.reason = "a folder, not a file";
        return file;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        file.reason = std::strerror(errno);
        return file;
    }
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            file.reason = std::strerror(errno);
            ::close(fd);
            return file;
        }
        if (n == 0)
            break;
        file.text.append(buffer, static_cast<std::size_t>(n));
        if (file.text.size() > maxBytes) {
            file.reason = "larger than " + std::to_string(maxBytes) + " bytes";
            file.text.clear();
            ::close(fd);
            return file;
        }
    }
    ::close(fd);
    file.state = FileState::Read;
    return file;
}

// `text` as one line fit for a message: control characters shown as \xNN, Unicode's
// bidirectional formatting characters and C1 controls as <U+XXXX> (shown, never obeyed), at most
// `maxBytes` bytes of it then "...".
inline std::string visibleExcerpt(const std::string &text, std::size_t maxBytes = 60) {
    std::size_t end = text.size() > maxBytes ? maxBytes : text.size();
    while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U)
        --end; // not inside a character
    std::string out;
    char code[16];
    for (std::size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0U;
        const auto third = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 2]) : 0U;
        unsigned point = 0; // a bidirectional or C1 control in UTF-8, else 0
        std::size_t length = 0;
        if (c == 0xE2 && next == 0x80 && ((third >= 0x8E && third <= 0x8F) ||
                                          (third >= 0xAA && third <= 0xAE)))
            point = 0x2000 + (third - 0x80), length = 3;
        else if (c == 0xE2 && next == 0x81 && third >= 0xA6 && third <= 0xA9)
            point = 0x2040 + (third - 0x80), length = 3;
        else if (c == 0xD8 && next == 0x9C)
            point = 0x061C, length = 2;
        else if (c == 0xC2 && next >= 0x80 && next <= 0x9F)
            point = next, length = 2;
        if (point != 0) {
            std::snprintf(code, sizeof code, "<U+%04X>", point);
            out += code;
            i += length - 1;
        } else if (c < 0x20 || c == 0x7F) {
            std::snprintf(code, sizeof code, "\\x%02X", c);
            out += code;
        } else {
            out += static_cast<char>(c);
        }
    }
    return end < text.size() ? out + "..." : out;
}

} // namespace devicebench
