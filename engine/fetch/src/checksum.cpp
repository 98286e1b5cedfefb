// SPDX-License-Identifier: MIT
// The archive's MD5 (OpenSSL's EVP interface).
#include "fetch_internal.h"

#include <openssl/evp.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench {
namespace fetch_detail {
namespace {

struct EvpCtxFree {
    void operator()(EVP_MD_CTX *ctx) const { EVP_MD_CTX_free(ctx); }
};

} // namespace

// MD5 of `path`; with `reporter` and `cancel`, reports bytes read and stops when cancelled.
std::string md5Hex(const std::string &path, ProgressReporter *reporter,
                   const std::atomic<bool> *cancel) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path + ": " + errnoText(errno));
    }
    std::unique_ptr<EVP_MD_CTX, EvpCtxFree> ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_md5(), nullptr) != 1) {
        throw std::runtime_error("MD5 is not available from OpenSSL");
    }
    std::vector<char> buffer(kReadBlock);
    std::int64_t done = 0;
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    const std::int64_t total = ec ? -1 : static_cast<std::int64_t>(size);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const std::streamsize got = in.gcount();
        if (got <= 0) {
            break;
        }
        EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(got));
        done += got;
        if (reporter) {
            reporter->update(done, total);
        }
        if (cancel) {
            throwIfCancelled(*cancel);
        }
    }
    if (in.bad()) {
        throw std::runtime_error("cannot read " + path + ": " + errnoText(errno));
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx.get(), digest, &length);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 0x0f];
    }
    return hex;
}

} // namespace fetch_detail

std::string md5OfFile(const std::string &path) {
    return fetch_detail::md5Hex(path, nullptr, nullptr);
}

} // namespace devicebench
