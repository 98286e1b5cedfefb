// SPDX-License-Identifier: MIT
// The download over HTTP(S) with libcurl: redirects followed, stalls and cancels abort it.
#include "fetch_internal.h"

#include "devicebench/version.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

namespace devicebench::fetch_detail {
namespace {

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

} // namespace

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

} // namespace devicebench::fetch_detail
