// SPDX-License-Identifier: MIT
// fetchCifar10(): the order of the steps and what is left behind. Download with libcurl
// (http_download.cpp), MD5 with OpenSSL's EVP (checksum.cpp), unpack with libarchive
// (unpack.cpp), check with the reader's folder check (data_location.h), clean up
// (fetch_cleanup.cpp). See fetch.h for the rules.
#include "devicebench/fetch.h"

#include "fetch_internal.h"

#include "devicebench/data_location.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace devicebench {
namespace fs = std::filesystem;
namespace fetch_detail {

std::string lowerHex(const std::string &text) {
    std::string out = text;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string errnoText(int error) { return std::generic_category().message(error); }

void throwIfCancelled(const std::atomic<bool> &cancel) {
    if (cancel.load()) {
        throw Cancelled{};
    }
}

namespace {

void replaceAll(std::string &text, const std::string &from, const std::string &to) {
    if (from.empty()) {
        return;
    }
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

// The folder to unpack into, absolute: options.targetDir, or defaultFetchDir().
fs::path targetFolder(const FetchOptions &options) {
    const std::string targetText =
        options.targetDir.empty() ? defaultFetchDir() : options.targetDir;
    if (targetText.empty()) {
        throw FetchError("no folder to unpack into: neither XDG_CACHE_HOME nor HOME is set; "
                         "name one (--dir DIR)");
    }
    std::error_code ec;
    const fs::path target = fs::absolute(targetText, ec).lexically_normal();
    if (ec) {
        throw FetchError("cannot use the folder " + targetText + ": " + ec.message());
    }
    return target;
}

// Whether `destination` already holds CIFAR-10; throws when it holds something else.
bool alreadyPresent(const fs::path &destination) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(destination, ec))) {
        return false;
    }
    if (const std::string problem = checkCifar10Folder(destination.string()); !problem.empty()) {
        throw FetchError(destination.string() +
                         " already exists and is not a usable CIFAR-10 folder (" + problem +
                         "); remove it or choose another folder");
    }
    return true;
}

void checkArchiveFile(const std::string &archivePath) {
    std::error_code ec;
    if (!fs::is_regular_file(archivePath, ec)) {
        throw FetchError(archivePath +
                         (fs::exists(archivePath, ec) ? " is not a file" : " does not exist"));
    }
}

// The size of `path` in bytes for a progress phase; -1 when unknown.
std::int64_t progressTotal(const fs::path &path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    return ec ? -1 : static_cast<std::int64_t>(size);
}

// options.url downloaded into `temp`; returns the archive's path.
fs::path downloadInto(const fs::path &temp, const FetchOptions &options, ProgressReporter &reporter,
                      const std::atomic<bool> &cancel) {
    const fs::path archivePath = temp / kDownloadName;
    reporter.start(FetchPhase::Downloading, -1);
    download(options, archivePath, reporter, cancel);
    reporter.finish();
    return archivePath;
}

// The archive's MD5 against options.expectedMd5 (when given).
void verifyMd5(const FetchOptions &options, const fs::path &archivePath, const std::string &source,
               ProgressReporter &reporter, const std::atomic<bool> &cancel) {
    if (options.expectedMd5.empty()) {
        return;
    }
    reporter.start(FetchPhase::Verifying, progressTotal(archivePath));
    std::string md5;
    try {
        md5 = md5Hex(archivePath.string(), &reporter, &cancel);
    } catch (const std::runtime_error &e) {
        throw FetchError(e.what());
    }
    reporter.finish();
    if (md5 != lowerHex(options.expectedMd5)) {
        throw FetchError("MD5 of " + source + " is " + md5 + ", expected " +
                         lowerHex(options.expectedMd5) +
                         ": the file is damaged or not the CIFAR-10 binary archive");
    }
}

// The archive unpacked into <temp>/unpacked; returns that folder.
fs::path unpackInto(const fs::path &temp, const fs::path &archivePath, const std::string &source,
                    ProgressReporter &reporter, const std::atomic<bool> &cancel) {
    const fs::path unpackDir = temp / "unpacked";
    std::error_code ec;
    fs::create_directory(unpackDir, ec);
    if (ec) {
        throw FetchError("cannot create " + unpackDir.string() + ": " + ec.message());
    }
    reporter.start(FetchPhase::Unpacking, progressTotal(archivePath));
    unpack(archivePath, source, unpackDir, reporter, cancel);
    reporter.finish();
    return unpackDir;
}

// The CIFAR-10 folder in `unpackDir`, checked as the reader checks it; returns its path.
fs::path checkUnpacked(const fs::path &unpackDir, const std::string &source,
                       ProgressReporter &reporter) {
    reporter.start(FetchPhase::Checking, -1);
    const fs::path unpacked = unpackDir / kCifar10FolderName;
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(unpacked, ec))) {
        std::string top;
        for (const auto &item : fs::directory_iterator(unpackDir, ec)) {
            top += (top.empty() ? "" : ", ") + item.path().filename().string();
        }
        throw FetchError(source + " holds no " + kCifar10FolderName + " folder (its top level: " +
                         (top.empty() ? std::string("nothing") : top) + ")");
    }
    if (std::string problem = checkCifar10Folder(unpacked.string()); !problem.empty()) {
        replaceAll(problem, unpackDir.string() + "/", "");
        throw FetchError(source + " does not hold a usable CIFAR-10 binary folder: " + problem);
    }
    reporter.finish();
    return unpacked;
}

void moveIntoPlace(const fs::path &unpacked, const fs::path &destination) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(destination, ec))) {
        throw FetchError(destination.string() + " appeared while unpacking; left it as it is");
    }
    fs::rename(unpacked, destination, ec);
    if (ec) {
        throw FetchError("cannot move the unpacked folder to " + destination.string() + ": " +
                         ec.message());
    }
}

FetchResult fetchOrThrow(const FetchOptions &options, const std::atomic<bool> &cancel) {
    const fs::path target = targetFolder(options);
    const fs::path destination = target / kCifar10FolderName;
    const bool fromFile = !options.archivePath.empty();
    const std::string source = fromFile ? options.archivePath : options.url;
    FetchResult result;
    result.dataDir = destination.string();
    if (alreadyPresent(destination)) {
        result.status = FetchStatus::AlreadyPresent;
        result.message =
            "CIFAR-10 is already in " + destination.string() + " (checked; nothing downloaded)";
        return result;
    }
    if (fromFile) {
        checkArchiveFile(options.archivePath);
    }
    throwIfCancelled(cancel);

    Cleanup cleanup;
    createTargetDir(target, cleanup);
    const fs::path temp = makeTempDir(target);
    cleanup.setTempDir(temp);
    ProgressReporter reporter(options.onProgress);
    const fs::path archivePath =
        fromFile ? fs::path(options.archivePath) : downloadInto(temp, options, reporter, cancel);
    throwIfCancelled(cancel);
    verifyMd5(options, archivePath, source, reporter, cancel);
    throwIfCancelled(cancel);
    const fs::path unpackDir = unpackInto(temp, archivePath, source, reporter, cancel);
    throwIfCancelled(cancel);
    const fs::path unpacked = checkUnpacked(unpackDir, source, reporter);
    throwIfCancelled(cancel);
    moveIntoPlace(unpacked, destination);
    cleanup.keepTargetDirs();
    result.status = FetchStatus::Ok;
    result.message =
        "CIFAR-10 (binary version) from " + source + " is ready in " + destination.string();
    spdlog::info("fetch: {}", result.message);
    return result;
}

} // namespace
} // namespace fetch_detail

const char *toString(FetchPhase phase) {
    switch (phase) {
    case FetchPhase::Downloading:
        return "downloading";
    case FetchPhase::Verifying:
        return "verifying";
    case FetchPhase::Unpacking:
        return "unpacking";
    case FetchPhase::Checking:
        return "checking";
    }
    return "?";
}

const char *toString(FetchStatus status) {
    switch (status) {
    case FetchStatus::Ok:
        return "ok";
    case FetchStatus::AlreadyPresent:
        return "already present";
    case FetchStatus::Cancelled:
        return "cancelled";
    case FetchStatus::Failed:
        return "failed";
    }
    return "?";
}

std::string formatByteCount(std::int64_t bytes) {
    if (bytes < 1000) {
        return std::to_string(bytes) + " B";
    }
    static constexpr const char *kUnits[] = {"kB", "MB", "GB", "TB"};
    double value = static_cast<double>(bytes) / 1000.0;
    std::size_t unit = 0;
    while (value >= 999.95 && unit + 1 < std::size(kUnits)) {
        value /= 1000.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

std::string formatTimeLeft(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0.0) {
        return "?";
    }
    const auto total = static_cast<long long>(std::ceil(seconds));
    char text[48];
    if (total < 60) {
        std::snprintf(text, sizeof text, "%lld s", total);
    } else if (total < 3600) {
        std::snprintf(text, sizeof text, "%lld min %02lld s", total / 60, total % 60);
    } else {
        std::snprintf(text, sizeof text, "%lld h %02lld min", total / 3600, (total % 3600) / 60);
    }
    return text;
}

std::string describeProgress(const FetchProgress &p) {
    std::string text = formatByteCount(p.bytesDone);
    if (p.bytesTotal >= 0) {
        text += " of " + formatByteCount(p.bytesTotal);
    }
    if (p.bytesPerSecond > 0.0) {
        text += ", " + formatByteCount(static_cast<std::int64_t>(std::llround(p.bytesPerSecond))) +
                "/s";
    }
    if (p.secondsLeft >= 0.0 && p.bytesDone < p.bytesTotal) {
        text += ", " + formatTimeLeft(p.secondsLeft) + " left";
    }
    return text;
}

std::string defaultFetchDir() {
    const std::string data = standardDataDir();
    return data.empty() ? std::string() : fs::path(data).parent_path().string();
}

FetchResult fetchCifar10(const FetchOptions &options, const std::atomic<bool> &cancel) {
    FetchResult result;
    try {
        return fetch_detail::fetchOrThrow(options, cancel);
    } catch (const fetch_detail::Cancelled &) {
        result.status = FetchStatus::Cancelled;
        result.message = "cancelled; nothing was left behind";
    } catch (const fetch_detail::FetchError &e) {
        result.status = FetchStatus::Failed;
        result.message = e.what();
    } catch (const std::exception &e) { // std::bad_alloc, filesystem errors
        result.status = FetchStatus::Failed;
        result.message = std::string("fetch failed: ") + e.what();
    }
    spdlog::info("fetch: {}: {}", toString(result.status), result.message);
    return result;
}

} // namespace devicebench
