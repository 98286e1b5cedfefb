// SPDX-License-Identifier: MIT
// Which data a run used: the folder, the variant and a cheap content hash of its batch files.
#include "devicebench/run_record.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <system_error>

namespace devicebench {
namespace {

constexpr std::size_t kHashPrefixBytes = 4096;
constexpr std::array<const char *, 6> kBatchFiles = {"data_batch_1.bin", "data_batch_2.bin",
                                                     "data_batch_3.bin", "data_batch_4.bin",
                                                     "data_batch_5.bin", "test_batch.bin"};

// FNV-1a, 64 bits (Fowler, Noll, Vo; offset basis 14695981039346656037, prime 1099511628211).
class Fnv1a64 {
public:
    void add(const void *data, std::size_t size) {
        const auto *bytes = static_cast<const unsigned char *>(data);
        for (std::size_t i = 0; i < size; ++i) {
            m_hash ^= static_cast<std::uint64_t>(bytes[i]);
            m_hash *= 1099511628211ULL;
        }
    }
    std::string hex() const {
        std::ostringstream s;
        s << std::hex << std::setw(16) << std::setfill('0') << m_hash;
        return s.str();
    }

private:
    std::uint64_t m_hash = 14695981039346656037ULL;
};

} // namespace

DataIdentity identifyData(const RunConfig &config, std::int64_t trainImages,
                          std::int64_t testImages) {
    DataIdentity d;
    d.trainImages = trainImages;
    d.testImages = testImages;
    if (config.synthetic) {
        d.variant = "synthetic";
        return d;
    }
    d.variant = "cifar-10-binary";
    d.path = config.dataDir;
    Fnv1a64 hash;
    for (const char *name : kBatchFiles) {
        hash.add(name, std::strlen(name));
        const std::string file = (std::filesystem::path(config.dataDir) / name).string();
        std::ifstream in(file, std::ios::binary);
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        // A missing file hashes as size 2^64 - 1 and no bytes: still a different identity.
        const std::uint64_t size64 = ec ? std::numeric_limits<std::uint64_t>::max() : size;
        std::array<unsigned char, 8> sizeBytes{};
        for (std::size_t i = 0; i < sizeBytes.size(); ++i) {
            sizeBytes[i] = static_cast<unsigned char>((size64 >> (8 * i)) & 0xffU);
        }
        hash.add(sizeBytes.data(), sizeBytes.size());
        if (in) {
            std::array<char, kHashPrefixBytes> prefix{};
            in.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
            hash.add(prefix.data(), static_cast<std::size_t>(in.gcount()));
        }
    }
    d.contentHash = hash.hex();
    return d;
}

} // namespace devicebench
