// SPDX-License-Identifier: MIT
#include "devicebench/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace devicebench {

AtomicWriteError::AtomicWriteError(Stage stage, int errorNumber, std::size_t written,
                                   std::size_t size)
    : std::runtime_error(std::strerror(errorNumber)), m_stage(stage), m_errorNumber(errorNumber),
      m_written(written), m_size(size) {}

AtomicWriteError::AtomicWriteError(Stage stage, const std::string &text, std::size_t size)
    : std::runtime_error(text), m_stage(stage), m_errorNumber(0), m_written(0), m_size(size) {}

bool AtomicWriteError::outOfSpace() const {
    return m_errorNumber == ENOSPC || m_errorNumber == EFBIG || m_errorNumber == EDQUOT;
}

namespace {

// `path`, or the file its chain of symbolic links ends at (which need not exist yet).
std::string throughLinks(const std::string &path) {
    namespace fs = std::filesystem;
    fs::path at(path);
    std::error_code error;
    for (int hop = 0; hop < 40 && fs::is_symlink(fs::symlink_status(at, error)); ++hop) {
        const fs::path target = fs::read_symlink(at, error);
        if (error)
            break;
        at = target.is_absolute() ? target : at.parent_path() / target;
    }
    return at.string();
}

// The mode a new version of `path` (links followed) gets: the old file's, or 0644 for a new one
// (documents are readable by all; mkstemp makes 0600). Throws as checkReplaceable.
mode_t modeFor(const std::string &path, std::size_t size) {
    using Stage = AtomicWriteError::Stage;
    struct stat existing {};
    if (::stat(path.c_str(), &existing) != 0)
        return 0644;
    if (S_ISDIR(existing.st_mode))
        throw AtomicWriteError(Stage::Open, EISDIR, 0, size);
    if (!S_ISREG(existing.st_mode))
        throw AtomicWriteError(Stage::Open,
                               "not a regular file (a device, pipe or socket): refused, so that "
                               "it is not replaced by one",
                               size);
    return existing.st_mode & 07777;
}

} // namespace

void checkReplaceable(const std::string &requested) {
    const std::string path = throughLinks(requested);
    static_cast<void>(modeFor(path, 0));
    std::string dir = std::filesystem::path(path).parent_path().string();
    struct stat folder {};
    if (::stat(dir.empty() ? "." : dir.c_str(), &folder) != 0)
        throw AtomicWriteError(AtomicWriteError::Stage::Open, errno, 0, 0);
    if (!S_ISDIR(folder.st_mode))
        throw AtomicWriteError(AtomicWriteError::Stage::Open, ENOTDIR, 0, 0);
}

void writeFileAtomically(const std::string &requested, const std::string &bytes) {
    using Stage = AtomicWriteError::Stage;
    const std::string path = throughLinks(requested);
    const mode_t mode = modeFor(path, bytes.size());
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0)
        throw AtomicWriteError(Stage::Open, errno, 0, bytes.size());
    std::size_t written = 0;
    const auto abandon = [&](Stage stage, int error) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw AtomicWriteError(stage, error, written, bytes.size());
    };
    if (::fchmod(fd, mode) != 0)
        abandon(Stage::Open, errno);
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            abandon(Stage::Write, errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        abandon(Stage::Fsync, errno);
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        throw AtomicWriteError(Stage::Close, error, written, bytes.size());
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        throw AtomicWriteError(Stage::Rename, error, written, bytes.size());
    }
    // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
    std::string dir = std::filesystem::path(path).parent_path().string();
    if (dir.empty())
        dir = ".";
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        static_cast<void>(::fsync(dirFd));
        ::close(dirFd);
    }
}

} // namespace devicebench
