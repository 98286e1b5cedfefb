// SPDX-License-Identifier: MIT
// Which data a run used: the folder, the variant and a content hash of every byte of the batch
// files a run reads (XXH3-128, libxxhash).
#include "devicebench/run_record.h"

#include <xxhash.h>

#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench {
namespace {

constexpr std::array<const char *, 6> kBatchFiles = {"data_batch_1.bin", "data_batch_2.bin",
                                                     "data_batch_3.bin", "data_batch_4.bin",
                                                     "data_batch_5.bin", "test_batch.bin"};
constexpr std::size_t kReadBytes = std::size_t{1} << 20; // 1 MiB reads

struct FreeState {
    void operator()(XXH3_state_t *state) const { XXH3_freeState(state); }
};
struct CloseFile {
    void operator()(std::FILE *file) const { std::fclose(file); }
};

void addSize(XXH3_state_t *state, std::uint64_t size) {
    std::array<unsigned char, 8> bytes{};
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = static_cast<unsigned char>((size >> (8 * i)) & 0xffU);
    }
    XXH3_128bits_update(state, bytes.data(), bytes.size());
}

// "xxh3-128:" and the state's digest in lower-case hex.
std::string hexDigest(XXH3_state_t *state) {
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(state));
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex = kDataHashPrefix;
    for (const unsigned char byte : canonical.digest) {
        hex += kHex[byte >> 4U];
        hex += kHex[byte & 0xfU];
    }
    return hex;
}

bool allHex(const std::string &text, std::size_t from) {
    for (std::size_t i = from; i < text.size(); ++i) {
        const auto ch = static_cast<unsigned char>(text[i]);
        if (std::isdigit(ch) == 0 && (ch < 'a' || ch > 'f')) {
            return false;
        }
    }
    return true;
}

} // namespace

DataHashMethod dataHashMethod(const std::string &contentHash) {
    if (contentHash.empty()) {
        return DataHashMethod::None;
    }
    const std::string prefix = kDataHashPrefix;
    if (contentHash.size() == prefix.size() + 32 && contentHash.rfind(prefix, 0) == 0 &&
        allHex(contentHash, prefix.size())) {
        return DataHashMethod::WholeFilesXxh3;
    }
    if (contentHash.size() == 16 && allHex(contentHash, 0)) {
        return DataHashMethod::PrefixFnv1a;
    }
    return DataHashMethod::Unknown;
}

DataIdentity identifyData(const RunConfig &config, std::int64_t trainImages,
                          std::int64_t testImages) {
    DataIdentity d;
    d.trainImages = trainImages;
    d.testImages = testImages;
    if (config.synthetic) {
        d.variant = "synthetic";
        return d;
    }
    if (workloadRow(config.workload).ownData) { // the user's script reads its own data
        d.variant = "script";
        return d;
    }
    d.variant = "cifar-10-binary";
    d.path = config.dataDir;
    const std::unique_ptr<XXH3_state_t, FreeState> state(XXH3_createState());
    if (!state || XXH3_128bits_reset(state.get()) == XXH_ERROR) {
        return d; // out of memory: identity unknown ("")
    }
    std::vector<char> buffer(kReadBytes);
    for (const char *name : kBatchFiles) {
        XXH3_128bits_update(state.get(), name, std::strlen(name) + 1); // with its NUL
        const std::string file = (std::filesystem::path(config.dataDir) / name).string();
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        // A missing file hashes as size 2^64 - 1 and no bytes: still a different identity.
        addSize(state.get(), ec ? std::numeric_limits<std::uint64_t>::max() : size);
        const std::unique_ptr<std::FILE, CloseFile> in(ec ? nullptr
                                                          : std::fopen(file.c_str(), "rb"));
        std::uint64_t read = 0;
        while (in) {
            const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), in.get());
            XXH3_128bits_update(state.get(), buffer.data(), got);
            read += got;
            if (got < buffer.size()) {
                break;
            }
        }
        // A file that could not be read whole (gone, unreadable, changed size) marks the hash,
        // so it never equals the hash of the complete file.
        if (!ec && read != size) {
            addSize(state.get(), read);
        }
    }
    d.contentHash = hexDigest(state.get());
    return d;
}

std::string fileContentHash(const std::string &path) {
    const std::unique_ptr<std::FILE, CloseFile> in(std::fopen(path.c_str(), "rb"));
    const std::unique_ptr<XXH3_state_t, FreeState> state(XXH3_createState());
    if (!in || !state || XXH3_128bits_reset(state.get()) == XXH_ERROR)
        return {};
    std::vector<char> buffer(kReadBytes);
    for (;;) {
        const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), in.get());
        XXH3_128bits_update(state.get(), buffer.data(), got);
        if (got < buffer.size())
            break;
    }
    return std::ferror(in.get()) != 0 ? std::string() : hexDigest(state.get());
}

} // namespace devicebench
