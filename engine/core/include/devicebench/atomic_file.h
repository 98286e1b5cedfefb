// SPDX-License-Identifier: MIT
// Writing a whole file atomically: a temporary "<path>.tmp-XXXXXX" (mode 0644) in the same
// folder, fsync, rename over `path`, then the folder fsynced so the rename is durable. A reader
// sees the complete old file or the complete new one, never half of either.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace devicebench {

// Why writeFileAtomically failed. what() is the OS error text alone (strerror); the caller
// names the file.
class AtomicWriteError : public std::runtime_error {
public:
    enum class Stage { Open, Write, Fsync, Close, Rename };
    AtomicWriteError(Stage stage, int errorNumber, std::size_t written, std::size_t size);
    // A refusal that is not an OS error (errorNumber() 0): `text` is what().
    AtomicWriteError(Stage stage, const std::string &text, std::size_t size);
    Stage stage() const { return m_stage; }
    int errorNumber() const { return m_errorNumber; } // errno of the failed call
    std::size_t written() const { return m_written; } // bytes written before a Write failure
    std::size_t size() const { return m_size; }       // bytes that were to be written
    // A write that ran out of room: ENOSPC, EFBIG, EDQUOT (a full disk or a file size limit).
    bool outOfSpace() const;

private:
    Stage m_stage;
    int m_errorNumber;
    std::size_t m_written;
    std::size_t m_size;
};

// Writes `bytes` to `path` as above. A symbolic link is written through (the file it leads to
// is replaced, the link stays); an existing file keeps its permissions. A device, pipe or socket
// is refused (Stage::Open), never replaced: `--csv /dev/null` must not swap the device for a
// file. Throws AtomicWriteError; then no temporary file is left and `path` is as it was.
void writeFileAtomically(const std::string &path, const std::string &bytes);

// Throws the AtomicWriteError (Stage::Open) that writeFileAtomically(path, ...) would throw
// before writing: `path` a folder, a device, pipe or socket, or its folder missing. For a set of
// files written together, checked first so that a bad one stops the set before any is written.
void checkReplaceable(const std::string &path);

} // namespace devicebench
