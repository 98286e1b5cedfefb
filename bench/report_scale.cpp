// SPDX-License-Identifier: MIT
// How big the HTML report gets and how long it takes to make (docs/PERFORMANCE.md, "The HTML
// report"): N runs in G groups of repeats, each an article-sized run (10 epochs of 782 steps,
// every step loss kept), made from an example record; the whole of writeHtmlReport (groups,
// control, JSON, page, atomic write), the median of 3. Prints one table row per size.
//   report_scale EXAMPLE_RECORD [OUT_DIR]
#include "devicebench/html_report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace {

using devicebench::RunRecord;

// Run `i` of group `group`: the example with 7820 step losses, its threads the group's mark
// (a group is one machine key) and its epochs a little slower or faster.
RunRecord runOf(const RunRecord &example, int i, int group) {
    RunRecord r = example;
    r.runId += "-" + std::to_string(i);
    r.started.threads = group + 1;
    r.config.threads = group + 1;
    r.started.stepsPerEpoch = 782;
    r.steps.clear();
    for (int n = 0; n < 7820; ++n) {
        const auto &from = example.steps[static_cast<std::size_t>(n) * example.steps.size() / 7820];
        r.steps.push_back({n / 782 + 1, n + 1, from.loss, from.seconds});
    }
    for (auto &e : r.epochs)
        e.seconds *= (1.0 + 0.1 * group) * (1.0 + 0.003 * (i % 7));
    return r;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: report_scale EXAMPLE_RECORD [OUT_DIR]\n");
        return 2;
    }
    const RunRecord example = devicebench::readRunRecord(argv[1]);
    const std::filesystem::path out = argc > 2 ? argv[2] : std::filesystem::temp_directory_path();
    std::printf("%6s %7s %10s %10s\n", "runs", "groups", "MB", "seconds");
    for (const auto &[runs, groups] : std::vector<std::pair<int, int>>{{2, 2}, {200, 10}}) {
        devicebench::RunSet store;
        for (int i = 0; i < runs; ++i)
            store.addRecord(runOf(example, i, i % groups), "run" + std::to_string(i) + ".json");
        const std::filesystem::path page = out / ("report-" + std::to_string(runs) + ".html");
        std::vector<double> seconds;
        for (int repeat = 0; repeat < 3; ++repeat) {
            const auto start = std::chrono::steady_clock::now();
            devicebench::writeHtmlReport(page.string(), store);
            seconds.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::sort(seconds.begin(), seconds.end());
        std::printf("%6d %7d %10.2f %10.3f\n", runs, groups,
                    static_cast<double>(std::filesystem::file_size(page)) / 1e6, seconds[1]);
    }
    return 0;
}
