// SPDX-License-Identifier: MIT
#include "devicebench/resource_files.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace devicebench {
namespace {

bool isSet(const char *value) { return value != nullptr && *value != '\0'; }

} // namespace

std::string currentProgramPath() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.string();
}

std::string resourceDirFor(const std::string &programPath, const char *variableValue) {
    if (isSet(variableValue))
        return variableValue;
    if (programPath.empty())
        return {};
    const std::filesystem::path folder = std::filesystem::path(programPath).parent_path();
    return (folder.parent_path() / "share" / "devicebench").lexically_normal().string();
}

std::string resourceDir() {
    return resourceDirFor(currentProgramPath(), std::getenv(kResourcesVariable));
}

std::string resourcePath(const std::string &relative) {
    const std::string dir = resourceDir();
    return dir.empty() ? std::string() : (std::filesystem::path(dir) / relative).string();
}

std::string userDataDirFor(const char *xdgDataHome, const char *home) {
    if (isSet(xdgDataHome))
        return (std::filesystem::path(xdgDataHome) / "devicebench").string();
    if (isSet(home))
        return (std::filesystem::path(home) / ".local" / "share" / "devicebench").string();
    return {};
}

std::string userDataDir() {
    return userDataDirFor(std::getenv("XDG_DATA_HOME"), std::getenv("HOME"));
}

std::string userCacheDirFor(const char *xdgCacheHome, const char *home) {
    if (isSet(xdgCacheHome))
        return (std::filesystem::path(xdgCacheHome) / "devicebench").string();
    if (isSet(home))
        return (std::filesystem::path(home) / ".cache" / "devicebench").string();
    return {};
}

std::string userCacheDir() {
    return userCacheDirFor(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

} // namespace devicebench
