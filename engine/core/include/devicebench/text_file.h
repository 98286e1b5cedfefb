// SPDX-License-Identifier: MIT
// A small text file read with the outcomes a user must be told apart (docs/ROBUSTNESS.md,
// "Broken is not missing"): absent; present but unreadable (the system's reason: permissions,
// a folder, an I/O error, too large); read, whose text the caller then checks and, when it is
// wrong, calls malformed, saying what is wrong and where (display_text.h shows the text safely).
// Header-only: the driver check (scripts/preset.sh) compiles without CMake.
#pragma once

#include <cerrno>
#include <cstddef>
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

} // namespace devicebench
