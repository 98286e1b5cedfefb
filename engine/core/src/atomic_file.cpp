// SPDX-License-Identifier: MIT
#include "devicebench/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace devicebench {

AtomicWriteError::AtomicWriteError(Stage stage, int errorNumber, std::size_t written,
                                   std::size_t size)
    : std::runtime_error(std::strerror(errorNumber)), m_stage(stage), m_errorNumber(errorNumber),
      m_written(written), m_size(size) {}

bool AtomicWriteError::outOfSpace() const {
    return m_errorNumber == ENOSPC || m_errorNumber == EFBIG || m_errorNumber == EDQUOT;
}

void writeFileAtomically(const std::string &path, const std::string &bytes) {
    using Stage = AtomicWriteError::Stage;
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
    // mkstemp makes the file private (0600); records and tables are ordinary documents.
    if (::fchmod(fd, 0644) != 0)
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
