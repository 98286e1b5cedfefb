// SPDX-License-Identifier: MIT
// Test support: writes .tar.gz archives with libarchive's writer, shaped like the official
// cifar-10-binary.tar.gz (a cifar-10-batches-bin/ folder with data_batch_1..5.bin,
// test_batch.bin and batches.meta.txt), or with bad entries for the refusal tests.
// Batch files use the layout of cifar_files.h; their pixels are zero, so a full-size
// synthetic archive (6 x 10,000 records, 184 MB unpacked) compresses to a few hundred kB.
#pragma once

#include "cifar_files.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace devicebench::testing {

struct ArchiveItem {
    enum class Kind { File, Folder, Symlink, Hardlink };
    std::string name;
    Kind kind = Kind::File;
    std::shared_ptr<const std::string> data; // File: the bytes (shared: batches are big)
    std::string linkTarget;                  // Symlink, Hardlink
};

// `records` records of a batch file: label labelOf(i) (cyclicLabel by default), pixels 0.
inline std::shared_ptr<const std::string> batchBytes(std::int64_t records) {
    auto bytes =
        std::make_shared<std::string>(static_cast<std::size_t>(records * kRecordBytes), '\0');
    for (std::int64_t i = 0; i < records; ++i) {
        (*bytes)[static_cast<std::size_t>(i * kRecordBytes)] = static_cast<char>(cyclicLabel(i));
    }
    return bytes;
}

// The items of a good archive; with `recordsPerBatch` < 10,000 the batch files are short
// (the folder check refuses them).
inline std::vector<ArchiveItem> cifarArchiveItems(std::int64_t recordsPerBatch = kRecordsPerFile) {
    const auto batch = batchBytes(recordsPerBatch);
    std::vector<ArchiveItem> items;
    items.push_back({"cifar-10-batches-bin/", ArchiveItem::Kind::Folder, nullptr, ""});
    for (int b = 1; b <= 5; ++b) {
        items.push_back({"cifar-10-batches-bin/data_batch_" + std::to_string(b) + ".bin",
                         ArchiveItem::Kind::File, batch, ""});
    }
    items.push_back({"cifar-10-batches-bin/test_batch.bin", ArchiveItem::Kind::File, batch, ""});
    items.push_back({"cifar-10-batches-bin/batches.meta.txt", ArchiveItem::Kind::File,
                     std::make_shared<const std::string>(
                         "airplane\nautomobile\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n"),
                     ""});
    return items;
}

// Writes `items` as a gzip-compressed ustar archive to `path`. Throws on a libarchive error.
inline void writeTarGz(const std::filesystem::path &path, const std::vector<ArchiveItem> &items) {
    struct Free {
        void operator()(archive *a) const { archive_write_free(a); }
    };
    std::unique_ptr<archive, Free> out(archive_write_new());
    archive_write_add_filter_gzip(out.get());
    archive_write_set_format_pax_restricted(out.get());
    if (archive_write_open_filename(out.get(), path.c_str()) != ARCHIVE_OK) {
        throw std::runtime_error("cannot write " + path.string());
    }
    for (const auto &item : items) {
        archive_entry *entry = archive_entry_new();
        archive_entry_set_pathname(entry, item.name.c_str());
        switch (item.kind) {
        case ArchiveItem::Kind::File:
            archive_entry_set_filetype(entry, AE_IFREG);
            archive_entry_set_perm(entry, 0644);
            archive_entry_set_size(entry, static_cast<la_int64_t>(item.data->size()));
            break;
        case ArchiveItem::Kind::Folder:
            archive_entry_set_filetype(entry, AE_IFDIR);
            archive_entry_set_perm(entry, 0755);
            break;
        case ArchiveItem::Kind::Symlink:
            archive_entry_set_filetype(entry, AE_IFLNK);
            archive_entry_set_perm(entry, 0777);
            archive_entry_set_symlink(entry, item.linkTarget.c_str());
            break;
        case ArchiveItem::Kind::Hardlink:
            archive_entry_set_filetype(entry, AE_IFREG);
            archive_entry_set_perm(entry, 0644);
            archive_entry_set_hardlink(entry, item.linkTarget.c_str());
            break;
        }
        if (archive_write_header(out.get(), entry) != ARCHIVE_OK) {
            const std::string why = archive_error_string(out.get());
            archive_entry_free(entry);
            throw std::runtime_error("cannot add " + item.name + ": " + why);
        }
        if (item.kind == ArchiveItem::Kind::File && !item.data->empty() &&
            archive_write_data(out.get(), item.data->data(), item.data->size()) < 0) {
            const std::string why = archive_error_string(out.get());
            archive_entry_free(entry);
            throw std::runtime_error("cannot write " + item.name + ": " + why);
        }
        archive_entry_free(entry);
    }
    if (archive_write_close(out.get()) != ARCHIVE_OK) {
        throw std::runtime_error("cannot finish " + path.string());
    }
}

// The good full-size archive (cifarArchiveItems()), built once per build tree and reused by
// every test process after it: ctest runs each test in a process of its own, so a
// SetUpTestSuite would build it again for every test (about 1.5 s each). The file lives in
// `cacheDir` (the build tree's, DEVICEBENCH_TEST_CACHE_DIR) under a name that changes with
// kSharedArchiveVersion; it is written to a unique temporary name and renamed into place, so
// tests running in parallel see the whole file or none. Tests must not change it.
inline constexpr int kSharedArchiveVersion = 1; // bump when cifarArchiveItems() changes
inline std::filesystem::path sharedGoodArchive(const std::filesystem::path &cacheDir) {
    namespace fs = std::filesystem;
    const fs::path path = cacheDir / ("cifar-10-binary-synthetic-v" +
                                      std::to_string(kSharedArchiveVersion) + ".tar.gz");
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        return path;
    }
    fs::create_directories(cacheDir);
    const fs::path partial =
        path.string() + ".tmp-" + std::to_string(static_cast<long>(::getpid()));
    writeTarGz(partial, cifarArchiveItems());
    fs::rename(partial, path);
    return path;
}

inline std::string readWholeFile(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void writeWholeFile(const std::filesystem::path &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Names directly inside `dir` (empty when it does not exist), for "nothing left behind".
inline std::vector<std::string> entriesOf(const std::filesystem::path &dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto &item : std::filesystem::directory_iterator(dir, ec)) {
        names.push_back(item.path().filename().string());
    }
    return names;
}

} // namespace devicebench::testing
