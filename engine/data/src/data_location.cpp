// SPDX-License-Identifier: MIT
#include "devicebench/data_location.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace devicebench {
namespace {

std::string env(const char *name) {
    const char *value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

} // namespace

std::string standardDataDir() {
    std::string base = env("XDG_CACHE_HOME");
    if (base.empty()) {
        const std::string home = env("HOME");
        if (home.empty()) {
            return {};
        }
        base = home + "/.cache";
    }
    return base + "/devicebench/cifar-10-batches-bin";
}

std::optional<std::string> findDefaultDataDir() {
    if (std::string fromEnv = env(kDataEnvVar); !fromEnv.empty()) {
        return fromEnv;
    }
    const std::string cache = standardDataDir();
    std::error_code ec;
    if (!cache.empty() && std::filesystem::exists(cache + "/test_batch.bin", ec)) {
        return cache;
    }
    return std::nullopt;
}

std::string dataDirHelp() {
    const std::string cache = standardDataDir();
    return "CIFAR-10 (binary version) was not found.\n"
           "  Get it: https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz (162 MB, md5 "
           "c32a1d4ab5d03f1284b67883e8d87530)\n"
           "  Put it: tar -xzf cifar-10-binary.tar.gz -C " +
           (cache.empty() ? std::string("<cache folder>")
                          : std::filesystem::path(cache).parent_path().string()) +
           "\n"
           "          (that makes " +
           (cache.empty() ? std::string("<cache>/devicebench/cifar-10-batches-bin") : cache) +
           "),\n"
           "  or point DeviceBench at an existing folder with --data-dir DIR or "
           "DEVICEBENCH_DATA=DIR.\n"
           "  Without it, --synthetic runs on generated data (times are real, accuracy is "
           "meaningless).";
}

} // namespace devicebench
