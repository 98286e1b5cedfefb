// SPDX-License-Identifier: MIT
// Unpacking the archive with libarchive, refusing entries that could write outside the folder.
#include "fetch_internal.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>
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

} // namespace

// Unpacks every entry of `archivePath` under `into` (which exists). Refuses unsafe entries.
void unpack(const fs::path &archivePath, const std::string &source, const fs::path &into,
            ProgressReporter &reporter, const std::atomic<bool> &cancel) {
    std::error_code ec;
    const auto size = fs::file_size(archivePath, ec);
    const std::int64_t total = ec ? -1 : static_cast<std::int64_t>(size);
    std::unique_ptr<archive, ArchiveReadFree> in(archive_read_new());
    std::unique_ptr<archive, ArchiveWriteFree> out(archive_write_disk_new());
    if (!in || !out) {
        throw FetchError("cannot unpack " + source + ": libarchive could not start");
    }
    archive_read_support_filter_all(in.get());
    archive_read_support_format_tar(in.get());
    // Defence in depth: libarchive refuses these too, besides the checks below. (Not
    // SECURE_NOABSOLUTEPATHS: every entry is written to an absolute path under `into`; an
    // absolute entry name is refused below.)
    archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                  ARCHIVE_EXTRACT_SECURE_SYMLINKS);
    const std::string prefix = source + " is not a usable archive: ";
    if (archive_read_open_filename(in.get(), archivePath.c_str(), kReadBlock) != ARCHIVE_OK) {
        throw FetchError(prefix + archiveError(in.get()));
    }
    std::int64_t unpacked = 0;
    int entries = 0;
    for (;;) {
        archive_entry *entry = nullptr;
        const int r = archive_read_next_header(in.get(), &entry);
        if (r == ARCHIVE_EOF) {
            break;
        }
        if (r < ARCHIVE_WARN) {
            throw FetchError(prefix + archiveError(in.get()) +
                             (entries == 0 ? " (is it a .tar.gz file?)" : ""));
        }
        ++entries;
        const char *rawName = archive_entry_pathname(entry);
        if (rawName == nullptr) {
            throw FetchError(prefix + "entry " + std::to_string(entries) +
                             " has a name that cannot be read");
        }
        std::string name = rawName;
        while (name.rfind("./", 0) == 0) {
            name.erase(0, 2);
        }
        if (name.empty() || name == ".") {
            continue; // the archive's own top folder entry
        }
        if (const std::string why = unsafeNameReason(name); !why.empty()) {
            throw FetchError(prefix + "entry \"" + name + "\" has " + why + "; refused");
        }
        const auto type = archive_entry_filetype(entry);
        if (archive_entry_hardlink(entry) != nullptr || (type != AE_IFREG && type != AE_IFDIR)) {
            throw FetchError(prefix + "entry \"" + name +
                             "\" is not a plain file or folder (a link or a device); refused");
        }
        const std::string target = (into / name).string();
        archive_entry_set_pathname(entry, target.c_str());
        if (archive_write_header(out.get(), entry) < ARCHIVE_WARN) {
            throw FetchError("cannot unpack \"" + name + "\" from " + source + ": " +
                             archiveError(out.get()));
        }
        for (;;) {
            const void *block = nullptr;
            std::size_t blockSize = 0;
            la_int64_t offset = 0;
            const int rd = archive_read_data_block(in.get(), &block, &blockSize, &offset);
            if (rd == ARCHIVE_EOF) {
                break;
            }
            if (rd < ARCHIVE_WARN) {
                throw FetchError(prefix + "entry \"" + name + "\": " + archiveError(in.get()));
            }
            unpacked += static_cast<std::int64_t>(blockSize);
            if (unpacked > kMaxUnpackedBytes) {
                throw FetchError(prefix + "it unpacks to more than " +
                                 formatByteCount(kMaxUnpackedBytes) +
                                 " (CIFAR-10 is 184 MB); refused");
            }
            if (archive_write_data_block(out.get(), block, blockSize, offset) < ARCHIVE_WARN) {
                throw FetchError("cannot unpack \"" + name + "\" from " + source + ": " +
                                 archiveError(out.get()));
            }
            reporter.update(archive_filter_bytes(in.get(), -1), total);
            throwIfCancelled(cancel);
        }
        if (archive_write_finish_entry(out.get()) < ARCHIVE_WARN) {
            throw FetchError("cannot unpack \"" + name + "\" from " + source + ": " +
                             archiveError(out.get()));
        }
        throwIfCancelled(cancel);
    }
    if (archive_write_close(out.get()) < ARCHIVE_WARN) {
        throw FetchError("cannot unpack " + source + ": " + archiveError(out.get()));
    }
    if (entries == 0) {
        throw FetchError(prefix + "it holds no files");
    }
}

} // namespace devicebench::fetch_detail
