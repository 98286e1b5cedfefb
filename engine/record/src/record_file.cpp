// SPDX-License-Identifier: MIT
// Run record files: bounded, checked reading and atomic writing (temporary file, fsync, rename).
#include "devicebench/run_record.h"

#include "devicebench/atomic_file.h"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
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
    try {
        writeFileAtomically(path, toJson(record));
    } catch (const AtomicWriteError &e) {
        const bool fsync = e.stage() == AtomicWriteError::Stage::Fsync;
        throw RecordError("cannot write run record " + path + ": " + (fsync ? "fsync: " : "") +
                          e.what());
    }
}

} // namespace devicebench
