// SPDX-License-Identifier: MIT
#include "devicebench/cifar10.h"

#include "cifar10_files.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace devicebench {
namespace {

using detail::badLabelError;
using detail::checkedRecordCount;
using detail::quoted;
using detail::rejectCifar100Size;

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
        throw DataError("could not read " + std::to_string(keep) + " records from " + quoted(path) +
                        " (file changed or read error)");
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

Cifar10 loadCifar10(const std::string &dirString, std::int64_t trainImages,
                    std::int64_t testImages) {
    if (trainImages < 0 || testImages < 0) {
        throw DataError("image counts must not be negative");
    }
    const fs::path dir = detail::checkFolderLayout(dirString);
    Cifar10 data;
    data.train = readSplit(dir, detail::kTrainFiles, trainImages, kCifarTrainImages, "training");
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

torch::Tensor resizeImages(const torch::Tensor &images, std::int64_t side) {
    if (side < 1) {
        throw std::invalid_argument("image size must be at least 1 pixel (got " +
                                    std::to_string(side) + ")");
    }
    if (images.scalar_type() != torch::kUInt8 || images.dim() != 4 || images.size(1) != 3) {
        throw std::invalid_argument("images to resize must be uint8 N x 3 x H x W");
    }
    if (images.size(2) == side && images.size(3) == side) {
        return images;
    }
    constexpr std::int64_t kChunk = 1000;
    const std::int64_t n = images.size(0);
    torch::Tensor out = torch::empty({n, 3, side, side}, images.options());
    namespace F = torch::nn::functional;
    const auto options = F::InterpolateFuncOptions()
                             .size(std::vector<std::int64_t>{side, side})
                             .mode(torch::kBilinear)
                             .align_corners(false);
    for (std::int64_t start = 0; start < n; start += kChunk) {
        const std::int64_t count = std::min(kChunk, n - start);
        const torch::Tensor chunk = images.narrow(0, start, count).to(torch::kFloat32);
        out.narrow(0, start, count)
            .copy_(F::interpolate(chunk, options).round_().clamp_(0.0, 255.0));
    }
    return out;
}

} // namespace devicebench
