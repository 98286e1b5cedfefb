// SPDX-License-Identifier: MIT
// Test support for the robustness tests (docs/ROBUSTNESS.md):
//  - permission denials that also happen when the tests run as root. Root ignores file
//    permissions, so "no read permission" or "read-only folder" cannot be produced by chmod
//    alone; these helpers run the code under test as the unprivileged user nobody instead;
//  - a CIFAR-10 folder made of sparse files, for the checks that look at sizes and label bytes.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <grp.h>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace devicebench::testing {

inline constexpr unsigned kNobodyId = 65534; // user and group "nobody" / "nogroup" (Debian)

// Runs `body` in a forked child that file permissions apply to: as root, the child first drops
// to user and group nobody; otherwise it keeps the caller's user (who is not root). Returns the
// text `body` returned, or std::nullopt with the reason in `why` when the child could not be
// made or could not drop privileges. The child only touches files: no LibTorch, no threads.
inline std::optional<std::string> runWithoutRoot(const std::function<std::string()> &body,
                                                 std::string *why) {
    int fds[2];
    if (::pipe(fds) != 0) {
        *why = std::string("pipe: ") + std::strerror(errno);
        return std::nullopt;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        *why = std::string("fork: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return std::nullopt;
    }
    if (pid == 0) {
        ::close(fds[0]);
        int code = 0;
        std::string text;
        if (::geteuid() == 0 && (::setgroups(0, nullptr) != 0 || ::setgid(kNobodyId) != 0 ||
                                 ::setuid(kNobodyId) != 0)) {
            text = std::string("cannot become user nobody: ") + std::strerror(errno);
            code = 3;
        } else {
            text = body();
        }
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
            if (n <= 0) {
                break;
            }
            done += static_cast<std::size_t>(n);
        }
        ::close(fds[1]);
        ::_exit(code);
    }
    ::close(fds[1]);
    std::string text;
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) {
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        *why = text.empty() ? "the child process failed" : text;
        return std::nullopt;
    }
    return text;
}

// The command prefix that runs a program as nobody when the tests run as root ("" otherwise),
// for tests that start the executables; std::nullopt when setpriv (util-linux) is missing.
inline std::optional<std::string> withoutRootPrefix() {
    if (::geteuid() != 0) {
        return std::string();
    }
    if (::access("/usr/bin/setpriv", X_OK) != 0) {
        return std::nullopt;
    }
    return "/usr/bin/setpriv --reuid=" + std::to_string(kNobodyId) +
           " --regid=" + std::to_string(kNobodyId) + " --clear-groups ";
}

// The six batch files at their exact size (30,730,000 bytes), every byte zero (label 0, black
// images). Sparse: no disk space and no time. Valid for every check except looking at pixels.
inline void writeSparseDataset(const std::filesystem::path &dir) {
    std::filesystem::create_directories(dir);
    for (const char *name : {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                             "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin"}) {
        std::ofstream(dir / name, std::ios::binary).close();
        std::filesystem::resize_file(dir / name, 30730000);
    }
}

// Overwrites one byte of `file` (e.g. the label byte of record i: offset i * 3,073).
inline void setByte(const std::filesystem::path &file, std::int64_t offset, unsigned char value) {
    std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(offset);
    f.put(static_cast<char>(value));
}

} // namespace devicebench::testing
