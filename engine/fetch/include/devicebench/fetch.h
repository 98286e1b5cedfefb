// SPDX-License-Identifier: MIT
// Getting the data set for the CLI's fetch-data and the dashboard: download the CIFAR-10 binary
// archive (or take a local one), check its MD5, unpack, check the folder, move it into place.
// The folder appears complete and checked or not at all: the work happens in a temporary
// ".cifar-10-fetch-XXXXXX" inside the target, renamed into place in one step, and removed on a
// failure or cancel (with the target folder, when this call made it). No LibTorch.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace devicebench {

// The official archive (https://www.cs.toronto.edu/~kriz/cifar.html, "CIFAR-10 binary
// version (suitable for C programs)"): 170,052,171 bytes, this MD5 as published there.
inline constexpr const char *kCifar10Url =
    "https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz";
inline constexpr const char *kCifar10Md5 = "c32a1d4ab5d03f1284b67883e8d87530";
// The folder the archive unpacks to (and the reader reads).
inline constexpr const char *kCifar10FolderName = "cifar-10-batches-bin";
// Unpacking stops past this many bytes (the real folder holds 184,380,000 bytes of batches
// plus two small text files): a guard against a decompression bomb from a bad mirror.
inline constexpr std::int64_t kMaxUnpackedBytes = 1024LL * 1024 * 1024;

enum class FetchPhase {
    Downloading, // bytes of the archive received over HTTP(S)
    Verifying,   // bytes of the archive read for its MD5
    Unpacking,   // compressed bytes of the archive read by the unpacker
    Checking,    // the unpacked folder checked with checkCifar10Folder() (no byte counts)
};
const char *toString(FetchPhase phase); // "downloading", "verifying", "unpacking", "checking"

struct FetchProgress {
    FetchPhase phase = FetchPhase::Downloading;
    std::int64_t bytesDone = 0;   // bytes of the archive handled so far in this phase
    std::int64_t bytesTotal = -1; // the archive's size in bytes; -1 when not known (yet)
    double bytesPerSecond = 0.0;  // over the last few seconds of this phase; 0 when unknown
    double secondsLeft = -1.0;    // of this phase at that rate; -1 when unknown
};

// "73.2 MB of 170.1 MB, 2.4 MB/s, 31 s left" (decimal units: 1 MB = 1,000,000 bytes; the
// parts that are unknown are left out: "1.2 MB" alone when nothing else is known).
std::string describeProgress(const FetchProgress &progress);
// 999 -> "999 B", 1,500 -> "1.5 kB", 73,200,000 -> "73.2 MB", 1.2e9 -> "1.2 GB".
std::string formatByteCount(std::int64_t bytes);
// Seconds as "7 s", "1 min 05 s", "2 h 03 min" (rounded up to whole seconds).
std::string formatTimeLeft(double seconds);

struct FetchOptions {
    // Where to download from (http:// or https://; redirects are followed). A mirror must
    // serve the identical file, or give its own expectedMd5.
    std::string url = kCifar10Url;
    // Non-empty: use this local archive instead of downloading (nothing is fetched; the file
    // itself is only read, never moved or removed).
    std::string archivePath;
    // The folder that receives cifar-10-batches-bin/ (as `tar -xzf ... -C targetDir`); created
    // when missing. Empty: defaultFetchDir().
    std::string targetDir;
    // Lower-case or upper-case hex MD5 the archive must have; empty: not checked (the folder
    // check after unpacking still applies).
    std::string expectedMd5 = kCifar10Md5;
    long connectTimeoutSeconds = 30; // to connect to the server
    long stallTimeoutSeconds = 60;   // abort when under 1 byte/s for this long
    // Called on the calling thread: when a phase starts, then at most ~10 times a second,
    // and once at the end of each phase with bytesDone == bytesTotal.
    std::function<void(const FetchProgress &)> onProgress;
};

enum class FetchStatus {
    Ok,             // downloaded (or read), checked and moved into place
    AlreadyPresent, // the target already holds a usable cifar-10-batches-bin: nothing done
    Cancelled,      // `cancel` was set; nothing left behind
    Failed,         // see message; nothing left behind
};
const char *toString(FetchStatus status); // "ok", "already present", "cancelled", "failed"

struct FetchResult {
    FetchStatus status = FetchStatus::Failed;
    std::string dataDir; // the cifar-10-batches-bin folder (Ok and AlreadyPresent)
    // Ok / AlreadyPresent: one line saying what was done. Failed: what went wrong, naming the
    // URL or file and the cause (HTTP status, network error, MD5 got and expected, the bad
    // archive entry, the folder check's message). Cancelled: "cancelled ...".
    std::string message;
};

// Gets CIFAR-10 into `options.targetDir`/cifar-10-batches-bin. An existing folder of that
// name is never replaced: AlreadyPresent if it passes the check, else Failed. Archive entries
// that are absolute, hold "..", or are not plain files and folders fail the fetch. `cancel` is
// polled at least once a second. Never throws for bad input or the network: see FetchResult.
FetchResult fetchCifar10(const FetchOptions &options, const std::atomic<bool> &cancel);

// Where fetchCifar10() unpacks by default: the parent of standardDataDir()
// ($XDG_CACHE_HOME/devicebench or ~/.cache/devicebench); empty when neither HOME nor
// XDG_CACHE_HOME is set.
std::string defaultFetchDir();

// The MD5 of a file's bytes as 32 lower-case hex digits. Throws std::runtime_error naming the
// file when it cannot be read.
std::string md5OfFile(const std::string &path);

} // namespace devicebench
