// SPDX-License-Identifier: MIT
// Test support: writes small synthetic files in the CIFAR-10 binary layout
// (1 label byte + 3,072 pixel bytes per record; 10,000 records per batch file).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench::testing {

inline constexpr std::int64_t kRecordBytes = 3073;
inline constexpr std::int64_t kRecordsPerFile = 10000;

// A fresh folder under the system temp dir, removed on destruction.
class TempDir {
public:
    explicit TempDir(const std::string &prefix = "devicebench-test") {
        std::random_device rd;
        for (int attempt = 0; attempt < 100; ++attempt) {
            auto candidate =
                std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(rd()));
            if (std::filesystem::create_directory(candidate)) {
                m_path = candidate;
                return;
            }
        }
        throw std::runtime_error("cannot create a temporary folder");
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

// Record i gets label labelOf(i) and pixel bytes (i + j) % 256 for byte j of the image.
inline void writeBatchFile(const std::filesystem::path &path, std::int64_t records,
                           const std::function<int(std::int64_t)> &labelOf,
                           std::int64_t extraBytes = 0) {
    // extraBytes < 0 truncates the file: fill whole records, then write fewer bytes.
    const std::int64_t total = records * kRecordBytes + extraBytes;
    std::vector<char> bytes(static_cast<std::size_t>(std::max(records * kRecordBytes, total)), 0);
    for (std::int64_t i = 0; i < records; ++i) {
        char *record = bytes.data() + i * kRecordBytes;
        record[0] = static_cast<char>(static_cast<unsigned char>(labelOf(i)));
        for (std::int64_t j = 0; j < kRecordBytes - 1; ++j) {
            record[1 + j] = static_cast<char>(static_cast<unsigned char>((i + j) % 256));
        }
    }
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(total));
}

inline int cyclicLabel(std::int64_t i) { return static_cast<int>(i % 10); }

// A complete, valid data folder: data_batch_1..5.bin and test_batch.bin with cyclic labels.
inline void writeDataset(const std::filesystem::path &dir) {
    std::filesystem::create_directories(dir);
    for (int b = 1; b <= 5; ++b) {
        writeBatchFile(dir / ("data_batch_" + std::to_string(b) + ".bin"), kRecordsPerFile,
                       cyclicLabel);
    }
    writeBatchFile(dir / "test_batch.bin", kRecordsPerFile, cyclicLabel);
}

// The real data set, for the tests that need it: $DEVICEBENCH_TEST_DATA, else the path CMake
// configured (../shared/datasets/cifar-10-batches-bin). Empty when absent.
inline std::string realDataDir(const char *configured) {
    const char *fromEnv = std::getenv("DEVICEBENCH_TEST_DATA");
    const std::string dir = (fromEnv && *fromEnv) ? fromEnv : configured;
    std::error_code ec;
    return std::filesystem::exists(std::filesystem::path(dir) / "test_batch.bin", ec) ? dir : "";
}

} // namespace devicebench::testing
