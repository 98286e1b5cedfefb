// SPDX-License-Identifier: MIT
// Download with libcurl, MD5 with OpenSSL's EVP, unpack with libarchive, check with the
// reader's folder check (data_location.h). See fetch.h for the rules.
#include "devicebench/fetch.h"

#include "devicebench/data_location.h"
#include "devicebench/version.h"

#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace devicebench {
namespace fs = std::filesystem;

namespace {

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

std::string lowerHex(const std::string &text) {
    std::string out = text;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string errnoText(int error) { return std::generic_category().message(error); }

// Turns a phase's byte counts into throttled FetchProgress reports with a rate and time left.
class ProgressReporter {
public:
    explicit ProgressReporter(const std::function<void(const FetchProgress &)> &callback)
        : callback_(callback) {}

    void start(FetchPhase phase, std::int64_t total) {
        progress_ = FetchProgress{};
        progress_.phase = phase;
        progress_.bytesTotal = total;
        samples_.clear();
        const auto now = Clock::now();
        samples_.emplace_back(now, 0);
        lastReport_ = now;
        report();
    }

    void update(std::int64_t done, std::int64_t total) {
        progress_.bytesDone = done;
        progress_.bytesTotal = total;
        const auto now = Clock::now();
        if (now - samples_.back().first >= kProgressInterval) {
            samples_.emplace_back(now, done);
            while (samples_.size() > 2 && now - samples_[1].first >= kRateWindow) {
                samples_.pop_front();
            }
        }
        if (now - lastReport_ >= kProgressInterval) {
            lastReport_ = now;
            computeRate(now);
            report();
        }
    }

    void finish() {
        if (progress_.bytesTotal >= 0) {
            progress_.bytesDone = progress_.bytesTotal;
        }
        progress_.secondsLeft = progress_.bytesTotal >= 0 ? 0.0 : -1.0;
        report();
    }

private:
    void computeRate(Clock::time_point now) {
        const auto &[oldTime, oldBytes] = samples_.front();
        const double seconds = std::chrono::duration<double>(now - oldTime).count();
        if (seconds < 0.2) {
            return; // too short to say
        }
        progress_.bytesPerSecond = static_cast<double>(progress_.bytesDone - oldBytes) / seconds;
        progress_.secondsLeft =
            (progress_.bytesTotal >= 0 && progress_.bytesPerSecond > 0.0)
                ? static_cast<double>(progress_.bytesTotal - progress_.bytesDone) /
                      progress_.bytesPerSecond
                : -1.0;
    }

    void report() {
        if (callback_) {
            callback_(progress_);
        }
    }

    const std::function<void(const FetchProgress &)> &callback_;
    FetchProgress progress_;
    std::deque<std::pair<Clock::time_point, std::int64_t>> samples_;
    Clock::time_point lastReport_;
};

void throwIfCancelled(const std::atomic<bool> &cancel) {
    if (cancel.load()) {
        throw Cancelled{};
    }
}

// ---- MD5 ------------------------------------------------------------------------------

struct EvpCtxFree {
    void operator()(EVP_MD_CTX *ctx) const { EVP_MD_CTX_free(ctx); }
};

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

// ---- download ---------------------------------------------------------------------------

void initCurlOnce() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlFree {
    void operator()(CURL *curl) const { curl_easy_cleanup(curl); }
};
struct FileClose {
    void operator()(std::FILE *file) const { std::fclose(file); }
};

struct DownloadState {
    std::FILE *file = nullptr;
    int writeErrno = 0;
    ProgressReporter *reporter = nullptr;
    const std::atomic<bool> *cancel = nullptr;
};

std::size_t writeToFile(char *data, std::size_t size, std::size_t count, void *user) {
    auto *state = static_cast<DownloadState *>(user);
    const std::size_t bytes = size * count;
    if (std::fwrite(data, 1, bytes, state->file) != bytes) {
        state->writeErrno = errno;
        return 0; // libcurl: CURLE_WRITE_ERROR
    }
    return bytes;
}

int onTransferInfo(void *user, curl_off_t downloadTotal, curl_off_t downloadNow,
                   curl_off_t /*uploadTotal*/, curl_off_t /*uploadNow*/) {
    auto *state = static_cast<DownloadState *>(user);
    state->reporter->update(static_cast<std::int64_t>(downloadNow),
                            downloadTotal > 0 ? static_cast<std::int64_t>(downloadTotal) : -1);
    return state->cancel->load() ? 1 : 0; // non-zero: CURLE_ABORTED_BY_CALLBACK
}

void download(const FetchOptions &options, const fs::path &destination, ProgressReporter &reporter,
              const std::atomic<bool> &cancel) {
    const std::string &url = options.url;
    if (url.empty()) {
        throw FetchError("no URL to download from");
    }
    initCurlOnce();
    std::unique_ptr<CURL, CurlFree> curl(curl_easy_init());
    if (!curl) {
        throw FetchError("download of " + url + " failed: libcurl could not start");
    }
    std::unique_ptr<std::FILE, FileClose> file(std::fopen(destination.c_str(), "wb"));
    if (!file) {
        throw FetchError("cannot write " + destination.string() + ": " + errnoText(errno));
    }
    DownloadState state;
    state.file = file.get();
    state.reporter = &reporter;
    state.cancel = &cancel;
    char errorBuffer[CURL_ERROR_SIZE] = {};
    const std::string userAgent = std::string("DeviceBench/") + kVersion;
    CURL *c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(c, CURLOPT_USERAGENT, userAgent.c_str());
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); // runs on worker threads; no SIGALRM
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500 // 7.85.0
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L); // HTTP >= 400 is an error, no body kept
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, options.connectTimeoutSeconds);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, options.stallTimeoutSeconds);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, writeToFile);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &state);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, onTransferInfo);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &state);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);

    spdlog::info("fetch: downloading {} to {}", url, destination.string());
    const CURLcode code = curl_easy_perform(c);
    long httpStatus = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &httpStatus);
    const int closeResult = std::fclose(file.release());
    if (code == CURLE_ABORTED_BY_CALLBACK && cancel.load()) {
        throw Cancelled{};
    }
    const std::string prefix = "download of " + url + " failed: ";
    if (code == CURLE_HTTP_RETURNED_ERROR) {
        throw FetchError(prefix + "the server answered HTTP " + std::to_string(httpStatus));
    }
    if (code == CURLE_WRITE_ERROR && state.writeErrno != 0) {
        throw FetchError(prefix + "cannot write " + destination.string() + ": " +
                         errnoText(state.writeErrno));
    }
    if (code != CURLE_OK) {
        const std::string detail = errorBuffer[0] != '\0' ? errorBuffer : curl_easy_strerror(code);
        throw FetchError(prefix + detail);
    }
    if (closeResult != 0) {
        throw FetchError(prefix + "cannot write " + destination.string() + ": " + errnoText(errno));
    }
}

// ---- unpacking --------------------------------------------------------------------------

struct ArchiveReadFree {
    void operator()(archive *a) const { archive_read_free(a); }
};
struct ArchiveWriteFree {
    void operator()(archive *a) const { archive_write_free(a); }
};

std::string archiveError(archive *a) {
    const char *text = archive_error_string(a);
    return text ? text : "unknown libarchive error";
}

// Why an entry name may not be unpacked; empty when it may.
std::string unsafeNameReason(const std::string &name) {
    if (name.empty()) {
        return "an empty name";
    }
    if (name.front() == '/') {
        return "an absolute path";
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t end = std::min(name.find('/', start), name.size());
        if (name.compare(start, end - start, "..") == 0 && end - start == 2) {
            return "a \"..\" component";
        }
        start = end + 1;
    }
    return {};
}

// Unpacks every entry of `archivePath` under `into` (which exists). Refuses unsafe entries.
void unpack(const fs::path &archivePath, const std::string &source, const fs::path &into,
            ProgressReporter &reporter, const std::atomic<bool> &cancel) {
    std::error_code ec;
    const auto size = fs::file_size(archivePath, ec);
    const std::int64_t total = ec ? -1 : static_cast<std::int64_t>(size);
    std::unique_ptr<archive, ArchiveReadFree> in(archive_read_new());
    std::unique_ptr<archive, ArchiveWriteFree> out(archive_write_disk_new());
    if (!in || !out) {
        throw FetchError("cannot unpack " + source + ": libarchive could not start");
    }
    archive_read_support_filter_all(in.get());
    archive_read_support_format_tar(in.get());
    // Defence in depth: libarchive refuses these too, besides the checks below. (Not
    // SECURE_NOABSOLUTEPATHS: every entry is written to an absolute path under `into`; an
    // absolute entry name is refused below.)
    archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                  ARCHIVE_EXTRACT_SECURE_SYMLINKS);
    const std::string prefix = source + " is not a usable archive: ";
    if (archive_read_open_filename(in.get(), archivePath.c_str(), kReadBlock) != ARCHIVE_OK) {
        throw FetchError(prefix + archiveError(in.get()));
    }
    std::int64_t unpacked = 0;
    int entries = 0;
    for (;;) {
        archive_entry *entry = nullptr;
        const int r = archive_read_next_header(in.get(), &entry);
        if (r == ARCHIVE_EOF) {
            break;
        }
        if (r < ARCHIVE_WARN) {
            throw FetchError(prefix + archiveError(in.get()) +
                             (entries == 0 ? " (is it a .tar.gz file?)" : ""));
        }
        ++entries;
        const char *rawName = archive_entry_pathname(entry);
        if (rawName == nullptr) {
            throw FetchError(prefix + "entry " + std::to_string(entries) +
                             " has a name that cannot be read");
        }
        std::string name = rawName;
        while (name.rfind("./", 0) == 0) {
            name.erase(0, 2);
        }
        if (name.empty() || name == ".") {
            continue; // the archive's own top folder entry
        }
        if (const std::string why = unsafeNameReason(name); !why.empty()) {
            throw FetchError(prefix + "entry \"" + name + "\" has " + why + "; refused");
        }
        const auto type = archive_entry_filetype(entry);
        if (archive_entry_hardlink(entry) != nullptr || (type != AE_IFREG && type != AE_IFDIR)) {
            throw FetchError(prefix + "entry \"" + name +
                             "\" is not a plain file or folder (a link or a device); refused");
        }
        const std::string target = (into / name).string();
        archive_entry_set_pathname(entry, target.c_str());
        if (archive_write_header(out.get(), entry) < ARCHIVE_WARN) {
            throw FetchError("cannot unpack \"" + name + "\" from " + source + ": " +
                             archiveError(out.get()));
        }
        for (;;) {
            const void *block = nullptr;
            std::size_t blockSize = 0;
            la_int64_t offset = 0;
            const int rd = archive_read_data_block(in.get(), &block, &blockSize, &offset);
            if (rd == ARCHIVE_EOF) {
                break;
            }
            if (rd < ARCHIVE_WARN) {
                throw FetchError(prefix + "entry \"" + name + "\": " + archiveError(in.get()));
            }
            unpacked += static_cast<std::int64_t>(blockSize);
            if (unpacked > kMaxUnpackedBytes) {
                throw FetchError(prefix + "it unpacks to more than " +
                                 formatByteCount(kMaxUnpackedBytes) +
                                 " (CIFAR-10 is 184 MB); refused");
            }
            if (archive_write_data_block(out.get(), block, blockSize, offset) < ARCHIVE_WARN) {
                throw FetchError("cannot unpack \"" + name + "\" from " + source + ": " +
                                 archiveError(out.get()));
            }
            reporter.update(archive_filter_bytes(in.get(), -1), total);
            throwIfCancelled(cancel);
        }
        if (archive_write_finish_entry(out.get()) < ARCHIVE_WARN) {
            throw FetchError("cannot unpack \"" + name + "\" from " + source + ": " +
                             archiveError(out.get()));
        }
        throwIfCancelled(cancel);
    }
    if (archive_write_close(out.get()) < ARCHIVE_WARN) {
        throw FetchError("cannot unpack " + source + ": " + archiveError(out.get()));
    }
    if (entries == 0) {
        throw FetchError(prefix + "it holds no files");
    }
}

// Removes what a fetch made (its temporary folder and the target folders it created) unless
// dismissed.
class Cleanup {
public:
    void setTempDir(fs::path dir) { tempDir_ = std::move(dir); }
    void addCreatedDir(fs::path dir) { createdDirs_.push_back(std::move(dir)); }
    void keepTargetDirs() { createdDirs_.clear(); }
    ~Cleanup() {
        std::error_code ec;
        if (!tempDir_.empty()) {
            fs::remove_all(tempDir_, ec);
            if (ec) {
                spdlog::warn("fetch: cannot remove {}: {}", tempDir_.string(), ec.message());
            }
        }
        // Innermost first; fs::remove() leaves a folder that is not empty.
        for (auto it = createdDirs_.rbegin(); it != createdDirs_.rend(); ++it) {
            fs::remove(*it, ec);
        }
    }
    Cleanup() = default;
    Cleanup(const Cleanup &) = delete;
    Cleanup &operator=(const Cleanup &) = delete;

private:
    fs::path tempDir_;
    std::vector<fs::path> createdDirs_; // outermost first
};

// Creates `dir` and its missing parents, recording each one created in `cleanup`.
void createTargetDir(const fs::path &dir, Cleanup &cleanup) {
    std::vector<fs::path> missing;
    std::error_code ec;
    for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path()) {
            break;
        }
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (!fs::create_directory(*it, ec) && ec) {
            throw FetchError("cannot create the folder " + it->string() + ": " + ec.message());
        }
        cleanup.addCreatedDir(*it);
    }
    if (!fs::is_directory(dir, ec)) {
        throw FetchError(dir.string() + " is not a folder");
    }
}

fs::path makeTempDir(const fs::path &parent) {
    std::string pattern = (parent / (std::string(kTempPrefix) + "XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
        throw FetchError("cannot create a temporary folder in " + parent.string() + ": " +
                         errnoText(errno));
    }
    return fs::path(buffer.data());
}

void replaceAll(std::string &text, const std::string &from, const std::string &to) {
    if (from.empty()) {
        return;
    }
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

FetchResult fetchOrThrow(const FetchOptions &options, const std::atomic<bool> &cancel) {
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
    const fs::path destination = target / kCifar10FolderName;
    const bool fromFile = !options.archivePath.empty();
    const std::string source = fromFile ? options.archivePath : options.url;

    FetchResult result;
    result.dataDir = destination.string();
    if (fs::exists(fs::symlink_status(destination, ec))) {
        if (const std::string problem = checkCifar10Folder(destination.string()); problem.empty()) {
            result.status = FetchStatus::AlreadyPresent;
            result.message =
                "CIFAR-10 is already in " + destination.string() + " (checked; nothing downloaded)";
            return result;
        } else {
            throw FetchError(destination.string() +
                             " already exists and is not a usable CIFAR-10 folder (" + problem +
                             "); remove it or choose another folder");
        }
    }
    if (fromFile) {
        if (!fs::is_regular_file(options.archivePath, ec)) {
            throw FetchError(options.archivePath + (fs::exists(options.archivePath, ec)
                                                        ? " is not a file"
                                                        : " does not exist"));
        }
    }
    throwIfCancelled(cancel);

    Cleanup cleanup;
    createTargetDir(target, cleanup);
    const fs::path temp = makeTempDir(target);
    cleanup.setTempDir(temp);

    ProgressReporter reporter(options.onProgress);
    fs::path archivePath = options.archivePath;
    if (!fromFile) {
        archivePath = temp / kDownloadName;
        reporter.start(FetchPhase::Downloading, -1);
        download(options, archivePath, reporter, cancel);
        reporter.finish();
    }
    throwIfCancelled(cancel);

    if (!options.expectedMd5.empty()) {
        std::error_code sizeEc;
        const auto size = fs::file_size(archivePath, sizeEc);
        reporter.start(FetchPhase::Verifying, sizeEc ? -1 : static_cast<std::int64_t>(size));
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
    throwIfCancelled(cancel);

    const fs::path unpackDir = temp / "unpacked";
    fs::create_directory(unpackDir, ec);
    if (ec) {
        throw FetchError("cannot create " + unpackDir.string() + ": " + ec.message());
    }
    {
        std::error_code sizeEc;
        const auto size = fs::file_size(archivePath, sizeEc);
        reporter.start(FetchPhase::Unpacking, sizeEc ? -1 : static_cast<std::int64_t>(size));
    }
    unpack(archivePath, source, unpackDir, reporter, cancel);
    reporter.finish();
    throwIfCancelled(cancel);

    reporter.start(FetchPhase::Checking, -1);
    const fs::path unpacked = unpackDir / kCifar10FolderName;
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
    throwIfCancelled(cancel);

    if (fs::exists(fs::symlink_status(destination, ec))) {
        throw FetchError(destination.string() + " appeared while unpacking; left it as it is");
    }
    fs::rename(unpacked, destination, ec);
    if (ec) {
        throw FetchError("cannot move the unpacked folder to " + destination.string() + ": " +
                         ec.message());
    }
    cleanup.keepTargetDirs();
    result.status = FetchStatus::Ok;
    result.message =
        "CIFAR-10 (binary version) from " + source + " is ready in " + destination.string();
    spdlog::info("fetch: {}", result.message);
    return result;
}

} // namespace

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

std::string md5OfFile(const std::string &path) { return md5Hex(path, nullptr, nullptr); }

FetchResult fetchCifar10(const FetchOptions &options, const std::atomic<bool> &cancel) {
    FetchResult result;
    try {
        return fetchOrThrow(options, cancel);
    } catch (const Cancelled &) {
        result.status = FetchStatus::Cancelled;
        result.message = "cancelled; nothing was left behind";
    } catch (const FetchError &e) {
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
