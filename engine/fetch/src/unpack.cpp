// SPDX-License-Identifier: MIT
// Unpacking the archive with libarchive, refusing entries that could write outside the folder.
#include "fetch_internal.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <system_error>

namespace devicebench::fetch_detail {
namespace {

struct ArchiveReadFree {
    void operator()(archive *a) const { archive_read_free(a); }
};
struct ArchiveWriteFree {
    void operator()(archive *a) const { archive_write_free(a); }
};

std::string archiveError(archive *a) {
    const char *text = archive_error_string(a);
    return text ? text : "unknown libarchive error";
}

// Why an entry name may not be unpacked; empty when it may.
std::string unsafeNameReason(const std::string &name) {
    if (name.empty()) {
        return "an empty name";
    }
    if (name.front() == '/') {
        return "an absolute path";
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t end = std::min(name.find('/', start), name.size());
        if (name.compare(start, end - start, "..") == 0 && end - start == 2) {
            return "a \"..\" component";
        }
        start = end + 1;
    }
    return {};
}

// One archive unpacked under a folder, entry by entry, each checked before it is written.
class Unpacker {
public:
    Unpacker(const fs::path &archivePath, const std::string &source, const fs::path &into,
             ProgressReporter &reporter, const std::atomic<bool> &cancel)
        : m_archivePath(archivePath), m_source(source), m_into(into), m_reporter(reporter),
          m_cancel(cancel), m_prefix(source + " is not a usable archive: ") {}

    void run() {
        open();
        while (unpackNext()) {
        }
        if (archive_write_close(m_out.get()) < ARCHIVE_WARN) {
            throw FetchError("cannot unpack " + m_source + ": " + archiveError(m_out.get()));
        }
        if (m_entries == 0) {
            throw FetchError(m_prefix + "it holds no files");
        }
    }

private:
    void open();
    bool unpackNext();
    std::string checkedName(archive_entry *entry) const;
    void copyData(const std::string &name);
    [[noreturn]] void throwWriteError(const std::string &name) const {
        throw FetchError("cannot unpack \"" + name + "\" from " + m_source + ": " +
                         archiveError(m_out.get()));
    }

    const fs::path &m_archivePath;
    const std::string &m_source;
    const fs::path &m_into;
    ProgressReporter &m_reporter;
    const std::atomic<bool> &m_cancel;
    const std::string m_prefix; // of the errors that blame the archive
    std::unique_ptr<archive, ArchiveReadFree> m_in;
    std::unique_ptr<archive, ArchiveWriteFree> m_out;
    std::int64_t m_total = -1;   // the archive's bytes; -1 unknown
    std::int64_t m_unpacked = 0; // bytes written so far
    int m_entries = 0;
};

void Unpacker::open() {
    std::error_code ec;
    const auto size = fs::file_size(m_archivePath, ec);
    m_total = ec ? -1 : static_cast<std::int64_t>(size);
    m_in.reset(archive_read_new());
    m_out.reset(archive_write_disk_new());
    if (!m_in || !m_out) {
        throw FetchError("cannot unpack " + m_source + ": libarchive could not start");
    }
    archive_read_support_filter_all(m_in.get());
    archive_read_support_format_tar(m_in.get());
    // Defence in depth: libarchive refuses these too, besides the checks below. (Not
    // SECURE_NOABSOLUTEPATHS: every entry is written to an absolute path under `into`; an
    // absolute entry name is refused below.)
    archive_write_disk_set_options(m_out.get(), ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                    ARCHIVE_EXTRACT_SECURE_SYMLINKS);
    if (archive_read_open_filename(m_in.get(), m_archivePath.c_str(), kReadBlock) != ARCHIVE_OK) {
        throw FetchError(m_prefix + archiveError(m_in.get()));
    }
}

// The next entry written under the folder; false at the end of the archive.
bool Unpacker::unpackNext() {
    archive_entry *entry = nullptr;
    const int r = archive_read_next_header(m_in.get(), &entry);
    if (r == ARCHIVE_EOF) {
        return false;
    }
    if (r < ARCHIVE_WARN) {
        throw FetchError(m_prefix + archiveError(m_in.get()) +
                         (m_entries == 0 ? " (is it a .tar.gz file?)" : ""));
    }
    ++m_entries;
    const std::string name = checkedName(entry);
    if (name.empty()) {
        return true; // the archive's own top folder entry
    }
    const std::string target = (m_into / name).string();
    archive_entry_set_pathname(entry, target.c_str());
    if (archive_write_header(m_out.get(), entry) < ARCHIVE_WARN) {
        throwWriteError(name);
    }
    copyData(name);
    if (archive_write_finish_entry(m_out.get()) < ARCHIVE_WARN) {
        throwWriteError(name);
    }
    throwIfCancelled(m_cancel);
    return true;
}

// The entry's name without leading "./" ("" for the archive's top folder); throws for a name
// that could write outside the folder and for anything but a plain file or folder.
std::string Unpacker::checkedName(archive_entry *entry) const {
    const char *rawName = archive_entry_pathname(entry);
    if (rawName == nullptr) {
        throw FetchError(m_prefix + "entry " + std::to_string(m_entries) +
                         " has a name that cannot be read");
    }
    std::string name = rawName;
    while (name.rfind("./", 0) == 0) {
        name.erase(0, 2);
    }
    if (name.empty() || name == ".") {
        return {};
    }
    if (const std::string why = unsafeNameReason(name); !why.empty()) {
        throw FetchError(m_prefix + "entry \"" + name + "\" has " + why + "; refused");
    }
    const auto type = archive_entry_filetype(entry);
    if (archive_entry_hardlink(entry) != nullptr || (type != AE_IFREG && type != AE_IFDIR)) {
        throw FetchError(m_prefix + "entry \"" + name +
                         "\" is not a plain file or folder (a link or a device); refused");
    }
    return name;
}

// The entry's data blocks, counted against kMaxUnpackedBytes.
void Unpacker::copyData(const std::string &name) {
    for (;;) {
        const void *block = nullptr;
        std::size_t blockSize = 0;
        la_int64_t offset = 0;
        const int rd = archive_read_data_block(m_in.get(), &block, &blockSize, &offset);
        if (rd == ARCHIVE_EOF) {
            return;
        }
        if (rd < ARCHIVE_WARN) {
            throw FetchError(m_prefix + "entry \"" + name + "\": " + archiveError(m_in.get()));
        }
        m_unpacked += static_cast<std::int64_t>(blockSize);
        if (m_unpacked > kMaxUnpackedBytes) {
            throw FetchError(m_prefix + "it unpacks to more than " +
                             formatByteCount(kMaxUnpackedBytes) + " (CIFAR-10 is 184 MB); refused");
        }
        if (archive_write_data_block(m_out.get(), block, blockSize, offset) < ARCHIVE_WARN) {
            throwWriteError(name);
        }
        m_reporter.update(archive_filter_bytes(m_in.get(), -1), m_total);
        throwIfCancelled(m_cancel);
    }
}

} // namespace

void unpack(const fs::path &archivePath, const std::string &source, const fs::path &into,
            ProgressReporter &reporter, const std::atomic<bool> &cancel) {
    Unpacker(archivePath, source, into, reporter, cancel).run();
}

} // namespace devicebench::fetch_detail
