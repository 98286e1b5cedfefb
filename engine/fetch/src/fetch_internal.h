// SPDX-License-Identifier: MIT
// Engine-internal (fetch): what the parts of fetchCifar10() share: the error types, the
// progress reporter and each part's entry point. Plain C++ (no LibTorch, no Qt).
#pragma once

#include "devicebench/fetch.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace devicebench::fetch_detail {

namespace fs = std::filesystem;

using Clock = std::chrono::steady_clock;

constexpr auto kProgressInterval = std::chrono::milliseconds(100); // at most ~10 reports/s
constexpr auto kRateWindow = std::chrono::seconds(5);              // rate over the last 5 s
constexpr std::size_t kReadBlock = 1 << 16;
constexpr const char *kTempPrefix = ".cifar-10-fetch-";
constexpr const char *kDownloadName = "cifar-10-binary.tar.gz";

// Thrown inside fetchCifar10() when `cancel` is seen; turned into FetchStatus::Cancelled.
struct Cancelled {};
// Any failure; what() is the user-facing message.
class FetchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `text` in lower case (ASCII): hex digests compare case-insensitively.
std::string lowerHex(const std::string &text);

// The C library's message for an errno value.
std::string errnoText(int error);

// Turns a phase's byte counts into throttled FetchProgress reports with a rate and time left.
class ProgressReporter {
public:
    explicit ProgressReporter(const std::function<void(const FetchProgress &)> &callback)
        : m_callback(callback) {}

    void start(FetchPhase phase, std::int64_t total) {
        m_progress = FetchProgress{};
        m_progress.phase = phase;
        m_progress.bytesTotal = total;
        m_samples.clear();
        const auto now = Clock::now();
        m_samples.emplace_back(now, 0);
        m_lastReport = now;
        report();
    }

    void update(std::int64_t done, std::int64_t total) {
        m_progress.bytesDone = done;
        m_progress.bytesTotal = total;
        const auto now = Clock::now();
        if (now - m_samples.back().first >= kProgressInterval) {
            m_samples.emplace_back(now, done);
            while (m_samples.size() > 2 && now - m_samples[1].first >= kRateWindow) {
                m_samples.pop_front();
            }
        }
        if (now - m_lastReport >= kProgressInterval) {
            m_lastReport = now;
            computeRate(now);
            report();
        }
    }

    void finish() {
        if (m_progress.bytesTotal >= 0) {
            m_progress.bytesDone = m_progress.bytesTotal;
        }
        m_progress.secondsLeft = m_progress.bytesTotal >= 0 ? 0.0 : -1.0;
        report();
    }

private:
    void computeRate(Clock::time_point now) {
        const auto &[oldTime, oldBytes] = m_samples.front();
        const double seconds = std::chrono::duration<double>(now - oldTime).count();
        if (seconds < 0.2) {
            return; // too short to say
        }
        m_progress.bytesPerSecond = static_cast<double>(m_progress.bytesDone - oldBytes) / seconds;
        m_progress.secondsLeft =
            (m_progress.bytesTotal >= 0 && m_progress.bytesPerSecond > 0.0)
                ? static_cast<double>(m_progress.bytesTotal - m_progress.bytesDone) /
                      m_progress.bytesPerSecond
                : -1.0;
    }

    void report() {
        if (m_callback) {
            m_callback(m_progress);
        }
    }

    const std::function<void(const FetchProgress &)> &m_callback;
    FetchProgress m_progress;
    std::deque<std::pair<Clock::time_point, std::int64_t>> m_samples;
    Clock::time_point m_lastReport;
};

// Throws Cancelled when `cancel` is set.
void throwIfCancelled(const std::atomic<bool> &cancel);

// MD5 of `path` as 32 lower-case hex digits (checksum.cpp); with `reporter` and `cancel`,
// reports bytes read and stops when cancelled. Throws std::runtime_error naming the file.
std::string md5Hex(const std::string &path, ProgressReporter *reporter,
                   const std::atomic<bool> *cancel);

// Downloads options.url to `destination` with libcurl (http_download.cpp). Throws FetchError
// naming the URL and the cause (HTTP status, network error, stall), or Cancelled.
void download(const FetchOptions &options, const fs::path &destination, ProgressReporter &reporter,
              const std::atomic<bool> &cancel);

// Unpacks every entry of `archivePath` under `into` (which exists) with libarchive
// (unpack.cpp); `source` names the archive in errors. Refuses absolute, ".." and link
// entries and more than kMaxUnpackedBytes. Throws FetchError or Cancelled.
void unpack(const fs::path &archivePath, const std::string &source, const fs::path &into,
            ProgressReporter &reporter, const std::atomic<bool> &cancel);

// Removes what a fetch made (its temporary folder and the target folders it created) unless
// dismissed.
class Cleanup {
public:
    void setTempDir(fs::path dir) { m_tempDir = std::move(dir); }
    void addCreatedDir(fs::path dir) { m_createdDirs.push_back(std::move(dir)); }
    void keepTargetDirs() { m_createdDirs.clear(); }
    ~Cleanup();
    Cleanup() = default;
    Cleanup(const Cleanup &) = delete;
    Cleanup &operator=(const Cleanup &) = delete;

private:
    fs::path m_tempDir;
    std::vector<fs::path> m_createdDirs; // outermost first
};

// Creates `dir` and its missing parents, recording each one created in `cleanup`. Throws
// FetchError.
void createTargetDir(const fs::path &dir, Cleanup &cleanup);

// A new private folder ".cifar-10-fetch-XXXXXX" in `parent`. Throws FetchError.
fs::path makeTempDir(const fs::path &parent);

} // namespace devicebench::fetch_detail
