// SPDX-License-Identifier: MIT
// Run record files: bounded, checked reading and atomic writing (temporary file, fsync, rename).
#include "devicebench/run_record.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace devicebench {
namespace {

std::string errnoText(int error) { return std::strerror(error); }

} // namespace

RunRecord readRunRecord(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int error = errno;
        if (error == ENOENT) {
            throw RecordError(path + " does not exist");
        }
        throw RecordError(path + " cannot be read: " + errnoText(error));
    }
    if (S_ISDIR(st.st_mode)) {
        throw RecordError(path + " is a folder, not a run record file");
    }
    if (!S_ISREG(st.st_mode)) {
        throw RecordError(path + " is not a regular file");
    }
    // Refused by its size before a byte is read.
    if (static_cast<std::int64_t>(st.st_size) > kMaxRunRecordBytes) {
        throw RecordError(path + " is " + std::to_string(st.st_size) + " bytes; run records over " +
                          std::to_string(kMaxRunRecordBytes / (1024 * 1024)) + " MiB are refused");
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw RecordError(path + " cannot be read: " + errnoText(errno));
    }
    std::string text;
    std::array<char, 65536> buffer{};
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int error = errno;
            ::close(fd);
            throw RecordError(path + " cannot be read: " + errnoText(error));
        }
        if (n == 0) {
            break;
        }
        text.append(buffer.data(), static_cast<std::size_t>(n));
        if (static_cast<std::int64_t>(text.size()) > kMaxRunRecordBytes) {
            ::close(fd);
            throw RecordError(path + " grew over " +
                              std::to_string(kMaxRunRecordBytes / (1024 * 1024)) +
                              " MiB while being read; run records over that are refused");
        }
    }
    ::close(fd);
    return parseRunRecord(text, path);
}

void writeRunRecord(const std::string &path, const RunRecord &record) {
    const std::string text = toJson(record);
    const auto fail = [&path](const std::string &what, int error) {
        throw RecordError("cannot write run record " + path + ": " + what + errnoText(error));
    };
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) {
        fail("", errno);
    }
    const auto abandon = [&](const std::string &what, int error) {
        ::close(fd);
        ::unlink(temp.c_str());
        fail(what, error);
    };
    // mkstemp makes the file private (0600); a record is an ordinary document.
    if (::fchmod(fd, 0644) != 0) {
        abandon("", errno);
    }
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            abandon("", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        abandon("fsync: ", errno);
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail("", error);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail("", error);
    }
    // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
    std::string dir = std::filesystem::path(path).parent_path().string();
    if (dir.empty()) {
        dir = ".";
    }
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        static_cast<void>(::fsync(dirFd));
        ::close(dirFd);
    }
}

} // namespace devicebench
