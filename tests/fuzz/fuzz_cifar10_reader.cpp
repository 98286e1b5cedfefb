// SPDX-License-Identifier: MIT
// Fuzz target: the CIFAR-10 record parser (parseBatchRecords, the part of readBatchFile that
// looks at the bytes) on arbitrary input. Every input must either be rejected with a DataError
// that names the source, or parse into exactly the records it holds: N = size / 3,073 labels
// 0-9 equal to each record's first byte, and N x 3 x 32 x 32 uint8 images equal to the other
// 3,072 bytes in file order (planes R, G, B). Anything else aborts: a crash, a sanitizer
// report, another exception type, or a result that differs from the bytes.
#include "devicebench/cifar10.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *kSource = "fuzz input";

[[noreturn]] void failCheck(const char *what) {
    std::fprintf(stderr, "fuzz_cifar10_reader: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    // One intra-op thread: the inputs are tiny, and a thread pool only adds noise.
    static const bool oneThread = (torch::set_num_threads(1), true);
    (void)oneThread;

    devicebench::Split split;
    try {
        split = devicebench::parseBatchRecords(data, size, kSource);
    } catch (const devicebench::DataError &e) {
        if (std::string(e.what()).find(std::string("'") + kSource + "'") == std::string::npos) {
            failCheck("a DataError does not name the source");
        }
        return 0;
    }
    const auto recordBytes = static_cast<std::size_t>(devicebench::kCifarRecordBytes);
    const auto imageBytes = static_cast<std::size_t>(devicebench::kCifarImageBytes);
    if (size == 0 || size % recordBytes != 0) {
        failCheck("accepted a size that is not a whole, non-zero number of records");
    }
    const auto records = static_cast<std::int64_t>(size / recordBytes);
    if (split.size() != records ||
        split.images.sizes().vec() != std::vector<std::int64_t>{records, 3, 32, 32} ||
        split.images.scalar_type() != torch::kUInt8 || !split.images.is_contiguous() ||
        split.labels.scalar_type() != torch::kInt64) {
        failCheck("wrong shape or type");
    }
    const auto *labels = split.labels.data_ptr<std::int64_t>();
    const auto *images = split.images.data_ptr<std::uint8_t>();
    for (std::int64_t i = 0; i < records; ++i) {
        const auto offset = static_cast<std::size_t>(i) * recordBytes;
        if (labels[i] < 0 || labels[i] > 9 || labels[i] != data[offset]) {
            failCheck("a label differs from its record's first byte or is outside 0-9");
        }
        if (std::memcmp(images + static_cast<std::size_t>(i) * imageBytes, data + offset + 1,
                        imageBytes) != 0) {
            failCheck("an image differs from its record's pixel bytes");
        }
    }
    return 0;
}
