// SPDX-License-Identifier: MIT
// The published results beside the runs (cli_published.h).
#include "cli_published.h"
#include "cli_command.h"
#include "cli_support.h"

#include "devicebench/reproduction.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_set.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <system_error>
#include <vector>

namespace devicebench::cli {
namespace {

std::string speedUpText(double ratio, bool isBaseline) {
    if (isBaseline)
        return "baseline";
    return std::isfinite(ratio) ? fixed(ratio, 2) + "x" : "–";
}

struct Row {
    std::string label, seconds, speedUp, note;
};

// The user's runs, then every published row.
std::vector<Row> tableRows(const PublishedBeside &beside, const RunSet &store) {
    std::vector<Row> rows;
    for (int i = 0; i < store.runCount(); ++i) {
        const RunEntry &run = store.run(i);
        const bool baseline = beside.baselineRow < 0 && run.isBaseline;
        rows.push_back(
            {run.label,
             run.summary.hasStable ? fixed(run.summary.stableMean, 3) + " s" : "no stable epochs",
             speedUpText(beside.runSpeedUps[static_cast<std::size_t>(i)], baseline), "your run"});
    }
    for (const PublishedEntry &entry : beside.rows)
        rows.push_back({entry.label, fixed(entry.seconds, 2) + " s",
                        speedUpText(entry.speedUp, entry.isBaseline), entry.comparability.note});
    return rows;
}

std::string baselineName(const PublishedBeside &beside, const RunSet &store) {
    if (beside.baselineRow >= 0)
        return beside.rows[static_cast<std::size_t>(beside.baselineRow)].label;
    if (store.runCount() == 0)
        return "";
    return "#" + std::to_string(store.run(store.baselineIndex()).number);
}

void printTable(std::ostream &out, const PublishedBeside &beside, const RunSet &store) {
    const std::string baseline = baselineName(beside, store);
    std::vector<Row> rows{{"run or published row", "stable mean",
                           baseline.empty() ? "speed-up" : "speed-up vs " + baseline, "note"}};
    for (Row &row : tableRows(beside, store))
        rows.push_back(std::move(row));
    std::size_t w[3] = {0, 0, 0};
    for (const Row &row : rows) {
        w[0] = std::max(w[0], columns(row.label));
        w[1] = std::max(w[1], columns(row.seconds));
        w[2] = std::max(w[2], columns(row.speedUp));
    }
    for (const Row &row : rows)
        out << "  " << pad(row.label, w[0]) << "  " << pad(row.seconds, w[1]) << "  "
            << pad(row.speedUp, w[2]) << "  " << row.note << "\n";
}

// Which of the store's runs can be compared with `set` like for like, in one line.
void printLikeForLike(std::ostream &out, const PublishedSet &set, const RunSet &store) {
    const std::string line = likeForLikeLine(set, store);
    if (!line.empty())
        out << line << "\n";
}

} // namespace

void addComparePublishedOptions(CLI::App &command, PublishedOptions &options) {
    command.add_flag("--published", options.show,
                     "Show the published results (the article's table, and reference files in "
                     "$XDG_DATA_HOME/devicebench/published) beside the runs; RECORDs may be "
                     "left out then");
    command.add_option("--published-dir", options.extraDir,
                       "Also read the reference files (*.json) of DIR (implies --published)");
    // Checked with the rows read (preparePublished), so that 0 gets the same message as 9.
    command.add_option_function<int>(
        "--published-baseline",
        [&options](int row) {
            options.baselineRow = row;
            options.baselineGiven = true;
        },
        "Speed-ups of the published table against its N-th published row, from 1 (default: "
        "the runs' baseline; implies --published)");
}

void addRunPublishedOptions(CLI::App &command, PublishedOptions &options) {
    CLI::Option *hide = command.add_flag_callback(
        "--no-published", [&options] { options.show = false; },
        "Do not show the published results (the article's table) after the runs");
    // Refused together: a folder given to be read and a table not shown contradict each other.
    command
        .add_option("--published-dir", options.extraDir,
                    "Also read the reference files (*.json) of DIR for the published table")
        ->excludes(hide);
}

std::string publishedDirProblem(const PublishedOptions &options) {
    namespace fs = std::filesystem;
    const std::string &dir = options.extraDir;
    std::error_code ec;
    if (dir.empty())
        return {};
    if (!fs::exists(dir, ec))
        return "--published-dir '" + dir + "' does not exist";
    if (!fs::is_directory(dir, ec))
        return "--published-dir '" + dir + "' is not a folder";
    fs::directory_iterator(dir, ec);
    if (ec)
        return "--published-dir '" + dir + "' cannot be read: " + ec.message();
    return {};
}

std::vector<PlannedInput> publishedInputs(const PublishedOptions &options) {
    std::vector<PlannedInput> inputs;
    if (!options.show)
        return inputs;
    for (const PublishedFolder &folder : publishedFolders(options.extraDir)) {
        const std::vector<PlannedInput> files = jsonFilesIn(folder.path, "the reference file");
        inputs.insert(inputs.end(), files.begin(), files.end());
    }
    return inputs;
}

PublishedLoad loadPublishedFiles(const PublishedOptions &options, std::ostream &err) {
    PublishedLoad load = loadPublished(publishedFolders(options.extraDir));
    for (const std::string &problem : load.problems)
        err << "devicebench-cli: skipped " << problem << "\n";
    return load;
}

int preparePublished(const PublishedOptions &options, const RunSet &store, std::ostream &err,
                     PublishedLoad *load, PublishedBeside *beside) {
    *load = loadPublishedFiles(options, err);
    if (!load->builtInFound)
        err << "devicebench-cli: note: no built-in published results in "
            << (resourceDir().empty() ? std::string("(unknown folder)")
                                      : resourceDir() + "/published")
            << " (set " << kResourcesVariable << " to the folder that holds published/)\n";
    std::size_t rows = 0;
    for (const PublishedSet &set : load->sets)
        rows += set.rows.size();
    if (options.baselineGiven &&
        (options.baselineRow < 1 || options.baselineRow > static_cast<int>(rows))) {
        err << "devicebench-cli: error: --published-baseline " << options.baselineRow << ": "
            << rows << " published rows were read (choose 1-" << rows << ")\n";
        return kExitUsage;
    }
    *beside = publishedBeside(load->sets, store, options.baselineRow - 1);
    return kExitOk;
}

void printPublished(std::ostream &out, const PublishedLoad &load, const PublishedBeside &beside,
                    const RunSet &store) {
    out << "published results (stable mean seconds per epoch, as published; no per-epoch "
           "data, so no interval):\n";
    printTable(out, beside, store);
    for (const PublishedSet &set : load.sets) {
        out << "  " << set.source.shortName << ": " << set.source.title << " (" << set.file
            << ")\n";
        if (!set.source.note.empty())
            out << "  " << set.source.shortName << ": " << set.source.note << "\n";
    }
    for (const PublishedSet &set : load.sets)
        printLikeForLike(out, set, store);
}

OrderedJson printPublishedAfterRuns(const PublishedOptions &options, const RunSet &store,
                                    std::ostream &out, std::ostream &err, PublishedShown *shown) {
    if (!options.show || store.runCount() == 0)
        return OrderedJson(nullptr);
    PublishedLoad load = loadPublishedFiles(options, err);
    if (!load.builtInFound)
        return OrderedJson(nullptr); // a build or bundle without its data files: say nothing
    if (!publishedBelongsBeside(store)) {
        out << "published results: not shown beside your script's runs (the published rows "
               "time another model on another loop, not your script's work)\n";
        return OrderedJson(nullptr);
    }
    const PublishedBeside beside = publishedBeside(load.sets, store);
    printPublished(out, load, beside, store);
    if (shown != nullptr)
        *shown = PublishedShown{true, load.sets, beside};
    return publishedJson(load.sets, beside, store);
}

void printProgramRatios(std::ostream &out, const RunSet &store) {
    for (const ProgramRatio &ratio : programRatios(store))
        out << ratio.line << "\n";
}

} // namespace devicebench::cli
