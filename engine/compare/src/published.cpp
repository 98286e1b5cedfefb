// SPDX-License-Identifier: MIT
// Published results beside the user's runs (published.h): the folders they come from, and the
// rule that says which runs can be held against them like for like.
#include "devicebench/published.h"
#include "devicebench/resource_files.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>

namespace devicebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// CIFAR-10's splits: what a run with no image limit (0) uses.
constexpr std::int64_t kAllTrainImages = 50000;
constexpr std::int64_t kAllTestImages = 10000;

std::string number(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

// The images per epoch a record used: what it started with, else what its config asked for.
std::int64_t imagesUsed(std::int64_t started, std::int64_t configured, std::int64_t all) {
    if (started > 0)
        return started;
    return configured > 0 ? configured : all;
}

// Each setting in which `record` differs from `settings`: "batch size 128 (article: 64)".
std::vector<std::string> settingDifferences(const PublishedSettings &settings,
                                            const std::string &name, const RunRecord &record) {
    std::vector<std::string> out;
    const auto differ = [&](bool differs, const std::string &what, const std::string &theirs,
                            const std::string &published) {
        if (differs)
            out.push_back(what + " " + theirs + " (" + name + ": " + published + ")");
    };
    const RunConfig &c = record.config;
    differ(record.model != settings.model, "model", record.model, settings.model);
    differ(c.batchSize != settings.batchSize, "batch size", std::to_string(c.batchSize),
           std::to_string(settings.batchSize));
    differ(c.epochs != settings.epochs, "epochs", std::to_string(c.epochs),
           std::to_string(settings.epochs));
    differ(c.warmupEpochs != settings.warmupEpochs, "warm-up epochs",
           std::to_string(c.warmupEpochs), std::to_string(settings.warmupEpochs));
    differ(std::abs(c.learningRate - settings.learningRate) > 1e-12 * settings.learningRate,
           "learning rate", number(c.learningRate), number(settings.learningRate));
    differ(record.precision != toString(settings.precision), "precision", record.precision,
           toString(settings.precision));
    differ(c.imageSize != settings.imageSize, "image size", std::to_string(c.imageSize) + " px",
           std::to_string(settings.imageSize) + " px");
    const std::int64_t train =
        imagesUsed(record.started.trainImages, c.trainImages, kAllTrainImages);
    const std::int64_t test = imagesUsed(record.started.testImages, c.testImages, kAllTestImages);
    differ(train != settings.trainImages || test != settings.testImages, "images",
           std::to_string(train) + " + " + std::to_string(test),
           std::to_string(settings.trainImages) + " + " + std::to_string(settings.testImages));
    if (c.synthetic || record.started.synthetic)
        out.push_back("synthetic data (" + name + ": CIFAR-10)");
    if (c.phases)
        out.push_back("phase-timed (" + name + ": not)");
    return out;
}

std::string joined(const std::vector<std::string> &parts) {
    std::string text;
    for (const std::string &part : parts)
        text += (text.empty() ? "" : ", ") + part;
    return text;
}

// The *.json files of a folder, by name; none when it does not exist.
std::vector<std::filesystem::path> jsonFiles(const std::string &folder) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (folder.empty() || !std::filesystem::is_directory(folder, ec))
        return files;
    for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
        if (entry.path().extension() == ".json" && !entry.is_directory(ec))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string resolvedPath(const std::filesystem::path &path) {
    std::error_code ec;
    const auto resolved = std::filesystem::weakly_canonical(path, ec);
    return ec ? path.string() : resolved.string();
}

} // namespace

std::string publishedProgramName(const std::string &workload) {
    if (workload == kArticleScriptWorkload)
        return "the article's script";
    if (const WorkloadRow *row = findWorkload(workload); row != nullptr && !row->pythonChild())
        return "DeviceBench's " + workload + " workload";
    return "workload '" + workload + "'";
}

std::string publishedLabel(const PublishedSet &set, const PublishedRow &row) {
    return set.source.shortName + ": " + row.device + " (" + row.where + ")";
}

std::vector<PublishedFolder> publishedFolders(const std::string &extraDir) {
    std::vector<PublishedFolder> folders;
    if (const std::string dir = resourceDir(); !dir.empty())
        folders.push_back({(std::filesystem::path(dir) / "published").string(), true});
    if (const std::string dir = userDataDir(); !dir.empty())
        folders.push_back({(std::filesystem::path(dir) / "published").string(), false});
    if (!extraDir.empty())
        folders.push_back({extraDir, false});
    return folders;
}

PublishedLoad loadPublished(const std::vector<PublishedFolder> &folders) {
    PublishedLoad load;
    std::set<std::string> seen;
    for (const PublishedFolder &folder : folders) {
        for (const std::filesystem::path &file : jsonFiles(folder.path)) {
            if (!seen.insert(resolvedPath(file)).second)
                continue; // the same file through another folder
            try {
                PublishedSet set = readPublished(file.string());
                set.builtIn = folder.builtIn;
                load.builtInFound = load.builtInFound || folder.builtIn;
                load.sets.push_back(std::move(set));
            } catch (const PublishedError &e) {
                load.problems.emplace_back(e.what());
            }
        }
    }
    return load;
}

PublishedComparability comparePublished(const PublishedSet &set, const RunRecord &record) {
    const std::string &program = set.source.program;
    const std::vector<std::string> differences =
        settingDifferences(set.settings, set.source.shortName, record);
    const std::string settings =
        differences.empty() ? std::string() : "other settings: " + joined(differences);
    if (record.workload != program)
        return {PublishedMatch::OtherProgram,
                "other program: " + publishedProgramName(record.workload) + ", not " +
                    publishedProgramName(program) + (settings.empty() ? "" : "; " + settings)};
    if (!differences.empty())
        return {PublishedMatch::OtherSettings, settings};
    return {PublishedMatch::LikeForLike, "like for like"};
}

std::vector<int> likeForLikeRuns(const PublishedSet &set, const RunSet &store) {
    std::vector<int> indices;
    for (int i = 0; i < store.runCount(); ++i) {
        if (comparePublished(set, store.run(i).record).likeForLike())
            indices.push_back(i);
    }
    return indices;
}

std::string likeForLikeLine(const PublishedSet &set, const RunSet &store) {
    if (store.runCount() == 0)
        return {}; // nothing to hold against the rows
    const std::string program = publishedProgramName(set.source.program);
    const std::string settings = "the settings of " + set.source.shortName;
    std::string runs;
    for (int index : likeForLikeRuns(set, store))
        runs += (runs.empty() ? "#" : ", #") + std::to_string(store.run(index).number);
    if (!runs.empty())
        return "like for like with the " + set.source.shortName + " (" + program + " at " +
               settings + "): " + runs;
    return "none of your runs is " + program + " at " + settings +
           ": its rows show where your runs stand, not a like-for-like speed-up (each row's note "
           "says what differs)";
}

bool publishedBelongsBeside(const RunSet &store) {
    const std::vector<RunEntry> &runs = store.runs();
    return runs.empty() || std::any_of(runs.begin(), runs.end(), [](const RunEntry &run) {
               return workloadRow(run.record.config.workload).engineModel;
           });
}

PublishedBeside publishedBeside(const std::vector<PublishedSet> &sets, const RunSet &store,
                                int publishedBaseline) {
    PublishedBeside beside;
    const RunEntry *baselineRun =
        store.runCount() > 0 ? &store.run(store.baselineIndex()) : nullptr;
    for (int s = 0; s < static_cast<int>(sets.size()); ++s) {
        const PublishedSet &set = sets[static_cast<std::size_t>(s)];
        for (int r = 0; r < static_cast<int>(set.rows.size()); ++r) {
            PublishedEntry entry;
            entry.setIndex = s;
            entry.rowIndex = r;
            entry.label = publishedLabel(set, set.rows[static_cast<std::size_t>(r)]);
            entry.seconds = set.rows[static_cast<std::size_t>(r)].stableMeanSeconds;
            entry.comparability = baselineRun != nullptr
                                      ? comparePublished(set, baselineRun->record)
                                      : PublishedComparability{PublishedMatch::NoRun,
                                                               "no run of yours to compare with"};
            beside.rows.push_back(std::move(entry));
        }
    }
    if (publishedBaseline >= static_cast<int>(beside.rows.size()))
        throw std::out_of_range("published row " + std::to_string(publishedBaseline + 1) +
                                " does not exist (" + std::to_string(beside.rows.size()) +
                                " rows)");
    double baselineSeconds = kNaN;
    if (publishedBaseline >= 0) {
        beside.baselineRow = publishedBaseline;
        beside.rows[static_cast<std::size_t>(publishedBaseline)].isBaseline = true;
        baselineSeconds = beside.rows[static_cast<std::size_t>(publishedBaseline)].seconds;
    } else if (baselineRun != nullptr && baselineRun->summary.hasStable) {
        baselineSeconds = baselineRun->summary.stableMean;
    }
    for (PublishedEntry &entry : beside.rows)
        entry.speedUp = baselineSeconds / entry.seconds; // NaN without a baseline
    for (const RunEntry &run : store.runs()) {
        if (publishedBaseline < 0)
            beside.runSpeedUps.push_back(run.speedUp.ratio);
        else
            beside.runSpeedUps.push_back(
                run.summary.hasStable ? baselineSeconds / run.summary.stableMean : kNaN);
    }
    return beside;
}

} // namespace devicebench
