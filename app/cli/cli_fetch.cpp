// SPDX-License-Identifier: MIT
// `devicebench-cli fetch-data`: see cli_fetch.h and devicebench/fetch.h.
#include "cli_fetch.h"

#include "devicebench/fetch.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

#include <unistd.h>

namespace devicebench::cli {
namespace {

constexpr int kBarWidth = 30;

std::string phaseTitle(FetchPhase phase) {
    switch (phase) {
    case FetchPhase::Downloading:
        return "downloading";
    case FetchPhase::Verifying:
        return "verifying MD5";
    case FetchPhase::Unpacking:
        return "unpacking";
    case FetchPhase::Checking:
        return "checking the folder";
    }
    return "?";
}

int percentOf(const FetchProgress &p) {
    if (p.bytesTotal <= 0) {
        return -1;
    }
    return static_cast<int>(std::clamp<std::int64_t>(p.bytesDone * 100 / p.bytesTotal, 0, 100));
}

// Prints FetchProgress reports: a bar redrawn in place on a terminal; plain lines otherwise
// (each phase once, then a download every 10%), so a log file stays short.
class ProgressPrinter {
public:
    ProgressPrinter(std::ostream &err, bool terminal) : m_err(err), m_terminal(terminal) {}

    void operator()(const FetchProgress &p) {
        const bool newPhase = !m_started || p.phase != m_phase;
        m_started = true;
        m_phase = p.phase;
        const int percent = percentOf(p);
        if (m_terminal) {
            std::string line = phaseTitle(p.phase);
            line.resize(20, ' ');
            if (p.phase != FetchPhase::Checking) {
                const int filled = percent < 0 ? 0 : percent * kBarWidth / 100;
                line += "[" + std::string(static_cast<std::size_t>(filled), '#') +
                        std::string(static_cast<std::size_t>(kBarWidth - filled), '-') + "] " +
                        (percent < 0 ? std::string("   ") : std::to_string(percent)) + "%  " +
                        describeProgress(p);
            }
            const std::size_t width = std::max(line.size(), m_lastWidth);
            line.resize(width, ' ');
            m_lastWidth = line.size();
            m_err << "\r" << line << std::flush;
            return;
        }
        if (newPhase) {
            m_nextPercent = 10;
            m_err << phaseTitle(p.phase) << "\n" << std::flush;
        }
        if (p.phase == FetchPhase::Downloading && percent >= m_nextPercent) {
            m_err << "  " << percent << "% (" << describeProgress(p) << ")\n" << std::flush;
            m_nextPercent = (percent / 10 + 1) * 10;
        }
    }

    // Ends the redrawn line before other output.
    void endLine() {
        if (m_terminal && m_lastWidth > 0) {
            m_err << "\n" << std::flush;
            m_lastWidth = 0;
        }
    }

private:
    std::ostream &m_err;
    bool m_terminal;
    bool m_started = false;
    FetchPhase m_phase = FetchPhase::Downloading;
    int m_nextPercent = 10;
    std::size_t m_lastWidth = 0;
};

} // namespace

bool stderrIsTerminal() { return isatty(fileno(stderr)) != 0; }

CLI::App *addFetchDataCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto shared = std::make_shared<FetchDataOptions>(); // kept by the callback
    FetchDataOptions &options = *shared;
    auto *fetch = app.add_subcommand(
        "fetch-data",
        "Download the CIFAR-10 binary archive (or use one already downloaded), check its MD5, "
        "unpack it and check the folder");
    fetch->add_option("--dir", options.dir,
                      "Folder that receives cifar-10-batches-bin/ (created if missing; default: "
                      "$XDG_CACHE_HOME/devicebench, i.e. ~/.cache/devicebench)");
    auto *url = fetch->add_option("--url", options.url, "Download from this URL (a mirror)")
                    ->default_str(kCifar10Url);
    fetch
        ->add_option("--from", options.from,
                     "Use this cifar-10-binary.tar.gz already downloaded instead")
        ->excludes(url);
    auto *md5 =
        fetch
            ->add_option("--md5", options.md5,
                         "Expected MD5 of the archive (a mirror serving another file)")
            ->default_str(kCifar10Md5)
            ->check(CLI::Validator(
                [](std::string &value) {
                    const bool hex =
                        value.size() == 32 && std::all_of(value.begin(), value.end(), [](char c) {
                            return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                        });
                    return hex ? std::string() : "'" + value + "' is not an MD5 (32 hex digits)";
                },
                "MD5"));
    fetch
        ->add_flag("--no-md5", options.noMd5,
                   "Do not check the MD5 (the unpacked folder is still checked)")
        ->excludes(md5);
    fetch->footer("Nothing is left behind by a failure or Ctrl-C: the folder appears complete "
                  "and checked, or not at all. Exit codes: 0 ready (or already there); 1 "
                  "failed; 2 bad usage; 130 stopped by SIGINT/SIGTERM.");
    setAction(*fetch, chosen, [shared, &context] {
        return fetchDataCommand(*shared, context.out, context.err, stderrIsTerminal(),
                                context.stopRequested);
    });
    return fetch;
}

int fetchDataCommand(const FetchDataOptions &options, std::ostream &out, std::ostream &err,
                     bool errIsTerminal, const std::atomic<bool> &stop) {
    FetchOptions fetch;
    fetch.targetDir = options.dir;
    if (!options.url.empty()) {
        fetch.url = options.url;
    }
    fetch.archivePath = options.from;
    if (options.noMd5) {
        fetch.expectedMd5.clear();
    } else if (!options.md5.empty()) {
        fetch.expectedMd5 = options.md5;
    }
    ProgressPrinter printer(err, errIsTerminal);
    fetch.onProgress = [&printer](const FetchProgress &p) { printer(p); };

    const std::string source = fetch.archivePath.empty() ? fetch.url : fetch.archivePath;
    const std::string target = fetch.targetDir.empty() ? defaultFetchDir() : fetch.targetDir;
    err << "fetch-data: " << source << " -> " << (target.empty() ? "?" : target) << "/"
        << kCifar10FolderName << "\n"
        << std::flush;
    const FetchResult result = fetchCifar10(fetch, stop);
    printer.endLine();
    switch (result.status) {
    case FetchStatus::Ok:
    case FetchStatus::AlreadyPresent:
        out << result.message << "\n";
        return kExitOk;
    case FetchStatus::Cancelled:
        err << "fetch-data: " << result.message << "\n";
        return kExitCancelled;
    case FetchStatus::Failed:
        break;
    }
    err << "fetch-data: " << result.message << "\n";
    return kExitRunFailed;
}

} // namespace devicebench::cli
