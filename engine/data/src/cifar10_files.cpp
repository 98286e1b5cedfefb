// SPDX-License-Identifier: MIT
// The CIFAR-10 file and folder checks that need no tensor (cifar10_files.h): shared by the
// reader (cifar10.cpp) and the folder check of the download (checkCifar10Folder, fetch).
#include "cifar10_files.h"

#include "devicebench/data_location.h"

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <system_error>

namespace fs = std::filesystem;

namespace devicebench {
namespace detail {

const std::vector<std::string> kTrainFiles = {"data_batch_1.bin", "data_batch_2.bin",
                                              "data_batch_3.bin", "data_batch_4.bin",
                                              "data_batch_5.bin"};

std::string quoted(const fs::path &p) { return "'" + p.string() + "'"; }

// CIFAR-100's binary records are 3,074 bytes (2 label bytes): a size that is a whole number of
// those and not of CIFAR-10's 3,073 is refused as such; `where` names the source.
void rejectCifar100Size(std::int64_t bytes, const std::string &where) {
    if (bytes % (kCifarRecordBytes + 1) == 0 && bytes % kCifarRecordBytes != 0) {
        throw DataError(where + " has " + std::to_string(bytes) +
                        " bytes, a multiple of 3,074: this looks like CIFAR-100 (2 label "
                        "bytes per record); DeviceBench needs CIFAR-10 (3,073-byte records)");
    }
}

// The error for record `index` of `where` whose label byte is `label` (> 9).
DataError badLabelError(const std::string &where, std::int64_t index, std::int64_t label) {
    return DataError(where + ": record " + std::to_string(index) + " has label byte " +
                     std::to_string(label) + "; CIFAR-10 labels are 0-9");
}

// Checks size and layout of a batch file without reading it.
std::int64_t checkedRecordCount(const fs::path &path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        throw DataError("CIFAR-10 batch file " + quoted(path) + " is missing");
    }
    if (!fs::is_regular_file(path, ec)) {
        throw DataError("CIFAR-10 batch file " + quoted(path) + " is not a regular file");
    }
    const auto bytes = static_cast<std::int64_t>(fs::file_size(path, ec));
    if (ec) {
        throw DataError("cannot read the size of " + quoted(path) + ": " + ec.message());
    }
    rejectCifar100Size(bytes, quoted(path));
    if (bytes % kCifarRecordBytes != 0) {
        throw DataError(quoted(path) + " has " + std::to_string(bytes) +
                        " bytes, not a multiple of the 3,073-byte CIFAR-10 record "
                        "(truncated or extra bytes; expected 30,730,000)");
    }
    const std::int64_t records = bytes / kCifarRecordBytes;
    if (records != kCifarRecordsPerFile) {
        throw DataError(quoted(path) + " holds " + std::to_string(records) +
                        " records; a CIFAR-10 batch file holds exactly 10,000 (30,730,000 bytes)");
    }
    return records;
}

// The folder-level checks: it exists, is a readable folder of the binary version with every
// batch file present. Throws DataError naming the path.
fs::path checkFolderLayout(const std::string &dirString) {
    const fs::path dir(dirString);
    std::error_code ec;
    if (dirString.empty()) {
        throw DataError("no CIFAR-10 data folder given");
    }
    if (!fs::exists(dir, ec)) {
        throw DataError("CIFAR-10 data folder " + quoted(dir) + " does not exist");
    }
    if (!fs::is_directory(dir, ec)) {
        throw DataError("CIFAR-10 data folder " + quoted(dir) + " is not a folder");
    }
    if (fs::exists(dir / "data_batch_1", ec) && !fs::exists(dir / "data_batch_1.bin", ec)) {
        throw DataError(quoted(dir) + " holds the Python pickle variant of CIFAR-10 "
                                      "(cifar-10-batches-py); DeviceBench needs the binary version "
                                      "(cifar-10-binary.tar.gz, folder cifar-10-batches-bin)");
    }
    {
        // Permission problems show up here rather than as a confusing "missing" later.
        fs::directory_iterator probe(dir, ec);
        if (ec) {
            throw DataError("cannot read CIFAR-10 data folder " + quoted(dir) + ": " +
                            ec.message());
        }
        if (probe == fs::directory_iterator()) {
            throw DataError("CIFAR-10 data folder " + quoted(dir) +
                            " is empty (expected data_batch_1..5.bin and test_batch.bin)");
        }
    }
    if (fs::exists(dir / "train.bin", ec) && fs::exists(dir / "test.bin", ec) &&
        !fs::exists(dir / "data_batch_1.bin", ec)) {
        throw DataError(quoted(dir) +
                        " holds CIFAR-100 (train.bin, test.bin, records of 3,074 "
                        "bytes); DeviceBench needs CIFAR-10 (cifar-10-binary.tar.gz, folder "
                        "cifar-10-batches-bin)");
    }
    for (const auto &name : kTrainFiles) {
        if (!fs::exists(dir / name, ec)) {
            throw DataError("CIFAR-10 batch file " + quoted(dir / name) +
                            " is missing (expected data_batch_1..5.bin and test_batch.bin)");
        }
    }
    if (!fs::exists(dir / "test_batch.bin", ec)) {
        throw DataError("CIFAR-10 batch file " + quoted(dir / "test_batch.bin") +
                        " is missing (expected data_batch_1..5.bin and test_batch.bin)");
    }
    return dir;
}

// Reads the file in chunks of whole records and checks each record's label byte (0-9), so
// that a bad label is found before any run, not when the run loads the data.
void checkLabelBytes(const fs::path &path, std::int64_t records) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw DataError("cannot open " + quoted(path) + " for reading (permission denied?)");
    }
    constexpr std::int64_t kChunkRecords = 1000;
    std::vector<char> chunk(static_cast<std::size_t>(kChunkRecords * kCifarRecordBytes));
    for (std::int64_t first = 0; first < records; first += kChunkRecords) {
        const std::int64_t n = std::min(kChunkRecords, records - first);
        in.read(chunk.data(), static_cast<std::streamsize>(n * kCifarRecordBytes));
        if (in.gcount() != static_cast<std::streamsize>(n * kCifarRecordBytes)) {
            throw DataError("could not read " + quoted(path) + " (file changed or read error)");
        }
        for (std::int64_t i = 0; i < n; ++i) {
            const auto label =
                static_cast<unsigned char>(chunk[static_cast<std::size_t>(i * kCifarRecordBytes)]);
            if (label > 9) {
                throw badLabelError(quoted(path), first + i, label);
            }
        }
    }
}

} // namespace detail

std::vector<std::string> cifar10BatchFiles(const std::string &dir) {
    std::vector<std::string> files;
    for (const auto &name : detail::kTrainFiles)
        files.push_back((fs::path(dir) / name).string());
    files.push_back((fs::path(dir) / "test_batch.bin").string());
    return files;
}

std::string checkCifar10Folder(const std::string &dirString) {
    try {
        const fs::path dir = detail::checkFolderLayout(dirString);
        std::vector<fs::path> files;
        for (const std::string &file : cifar10BatchFiles(dir.string()))
            files.emplace_back(file);
        std::vector<std::int64_t> records;
        for (const auto &file : files) { // every size first: cheap, and the usual problem
            records.push_back(detail::checkedRecordCount(file));
        }
        for (std::size_t i = 0; i < files.size(); ++i) {
            detail::checkLabelBytes(files[i], records[i]);
        }
    } catch (const DataError &e) {
        return e.what();
    }
    return {};
}

} // namespace devicebench
