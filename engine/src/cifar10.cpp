// SPDX-License-Identifier: MIT
#include "devicebench/cifar10.h"
#include "devicebench/data_location.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace devicebench {
namespace {

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

// Labels and images out of N x 3,073 raw record bytes; `where` names the source in errors.
Split splitFromRecords(const torch::Tensor &raw, const std::string &where) {
    Split split;
    split.labels = raw.select(1, 0).to(torch::kInt64);
    const auto bad = (split.labels > 9).nonzero();
    if (bad.size(0) > 0) {
        const auto index = bad[0][0].item<std::int64_t>();
        throw badLabelError(where, index, split.labels[index].item<std::int64_t>());
    }
    split.images =
        raw.narrow(1, 1, kCifarImageBytes).reshape({raw.size(0), 3, 32, 32}).contiguous();
    return split;
}

} // namespace

Split readBatchFile(const std::string &pathString, std::int64_t maxRecords) {
    const fs::path path(pathString);
    const std::int64_t records = checkedRecordCount(path);
    const std::int64_t keep = (maxRecords > 0 && maxRecords < records) ? maxRecords : records;

    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw DataError("cannot open " + quoted(path) + " for reading (permission denied?)");
    }
    auto raw = torch::empty({keep, kCifarRecordBytes}, torch::kUInt8);
    in.read(reinterpret_cast<char *>(raw.data_ptr<std::uint8_t>()),
            static_cast<std::streamsize>(keep * kCifarRecordBytes));
    if (in.gcount() != static_cast<std::streamsize>(keep * kCifarRecordBytes)) {
        throw DataError("could not read " + std::to_string(keep) + " records from " +
                        quoted(path) + " (file changed or read error)");
    }
    // Labels of the records we do not keep are checked too: the file is validated whole.
    if (keep < records) {
        std::vector<char> record(static_cast<std::size_t>(kCifarRecordBytes));
        for (std::int64_t i = keep; i < records; ++i) {
            in.read(record.data(), static_cast<std::streamsize>(record.size()));
            const auto label = static_cast<unsigned char>(record[0]);
            if (!in || label > 9) {
                throw DataError(quoted(path) + ": record " + std::to_string(i) +
                                " has label byte " + std::to_string(label) +
                                "; CIFAR-10 labels are 0-9");
            }
        }
    }

    return splitFromRecords(raw, quoted(path));
}

Split parseBatchRecords(const std::uint8_t *bytes, std::size_t size, const std::string &source) {
    const std::string where = quoted(fs::path(source));
    const auto count = static_cast<std::int64_t>(size);
    if (count == 0) {
        throw DataError(where + " holds no CIFAR-10 records (0 bytes)");
    }
    rejectCifar100Size(count, where);
    if (count % kCifarRecordBytes != 0) {
        throw DataError(where + " has " + std::to_string(count) +
                        " bytes, not a whole number of 3,073-byte CIFAR-10 records");
    }
    const std::int64_t records = count / kCifarRecordBytes;
    auto raw = torch::empty({records, kCifarRecordBytes}, torch::kUInt8);
    std::memcpy(raw.data_ptr<std::uint8_t>(), bytes, size);
    return splitFromRecords(raw, where);
}

namespace {

Split readSplit(const fs::path &dir, const std::vector<std::string> &files, std::int64_t limit,
                std::int64_t available, const char *splitName) {
    if (limit > available) {
        throw DataError(std::string("asked for ") + std::to_string(limit) + " " + splitName +
                        " images, but " + quoted(dir) + " holds " + std::to_string(available));
    }
    const std::int64_t wanted = limit > 0 ? limit : available;
    std::vector<torch::Tensor> images;
    std::vector<torch::Tensor> labels;
    std::int64_t have = 0;
    for (const auto &name : files) {
        const fs::path path = dir / name;
        if (have >= wanted) {
            checkedRecordCount(path); // present and well-formed, not read
            continue;
        }
        Split part = readBatchFile(path.string(), wanted - have);
        have += part.size();
        images.push_back(part.images);
        labels.push_back(part.labels);
    }
    Split split;
    split.images = images.size() == 1 ? images[0] : torch::cat(images);
    split.labels = labels.size() == 1 ? labels[0] : torch::cat(labels);
    return split;
}

} // namespace

namespace {

const std::vector<std::string> kTrainFiles = {"data_batch_1.bin", "data_batch_2.bin",
                                              "data_batch_3.bin", "data_batch_4.bin",
                                              "data_batch_5.bin"};

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
        throw DataError(quoted(dir) + " holds CIFAR-100 (train.bin, test.bin, records of 3,074 "
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
            const auto label = static_cast<unsigned char>(
                chunk[static_cast<std::size_t>(i * kCifarRecordBytes)]);
            if (label > 9) {
                throw badLabelError(quoted(path), first + i, label);
            }
        }
    }
}

} // namespace

std::string checkCifar10Folder(const std::string &dirString) {
    try {
        const fs::path dir = checkFolderLayout(dirString);
        std::vector<fs::path> files;
        for (const auto &name : kTrainFiles) {
            files.push_back(dir / name);
        }
        files.push_back(dir / "test_batch.bin");
        std::vector<std::int64_t> records;
        for (const auto &file : files) { // every size first: cheap, and the usual problem
            records.push_back(checkedRecordCount(file));
        }
        for (std::size_t i = 0; i < files.size(); ++i) {
            checkLabelBytes(files[i], records[i]);
        }
    } catch (const DataError &e) {
        return e.what();
    }
    return {};
}

Cifar10 loadCifar10(const std::string &dirString, std::int64_t trainImages,
                    std::int64_t testImages) {
    if (trainImages < 0 || testImages < 0) {
        throw DataError("image counts must not be negative");
    }
    const fs::path dir = checkFolderLayout(dirString);
    Cifar10 data;
    data.train = readSplit(dir, kTrainFiles, trainImages, kCifarTrainImages, "training");
    data.test = readSplit(dir, {"test_batch.bin"}, testImages, kCifarTestImages, "test");
    data.source = dir.string();
    spdlog::debug("loaded CIFAR-10 from {}: {} training, {} test images", data.source,
                  data.train.size(), data.test.size());
    return data;
}

Cifar10 makeSyntheticCifar10(std::int64_t trainImages, std::int64_t testImages,
                             std::uint64_t seed) {
    if (trainImages <= 0 || testImages <= 0) {
        throw DataError("synthetic data needs at least one training and one test image");
    }
    auto generator = at::detail::createCPUGenerator(seed);
    auto make = [&](std::int64_t n) {
        Split split;
        split.images = torch::randint(0, 256, {n, 3, 32, 32}, generator,
                                      torch::TensorOptions().dtype(torch::kUInt8));
        split.labels = torch::randint(0, kCifarClasses, {n}, generator,
                                      torch::TensorOptions().dtype(torch::kInt64));
        return split;
    };
    Cifar10 data;
    data.train = make(trainImages);
    data.test = make(testImages);
    data.source = "synthetic";
    data.synthetic = true;
    return data;
}

torch::Tensor toUnitFloat(const torch::Tensor &images) {
    return images.to(torch::kFloat32).div_(255.0);
}

} // namespace devicebench
