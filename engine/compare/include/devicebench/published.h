// SPDX-License-Identifier: MIT
// Published results: stable means that someone published (the article's table, or a user's own
// file), read from reference files (docs/published-results.md, schema kPublishedSchemaVersion)
// and shown beside the user's runs, with whether each can be compared like for like.
// Plain C++ (no Qt, no LibTorch). Seconds are seconds per epoch.
//
// For a front end: loadPublished(publishedFolders(extra)) once; then, for the runs in view,
// publishedBeside(sets, store, choice) gives every row with its speed-up and its note, and
// likeForLikeRuns(set, store) the runs that can be held against a set like for like.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/run_types.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {

inline constexpr int kPublishedSchemaVersion = 1;
inline constexpr std::int64_t kMaxPublishedBytes = 1024 * 1024; // larger files are refused

// The workload name a record carries when DeviceBench ran the article's own Python script
// (RunRecord::workload).
inline constexpr const char *kArticleScriptWorkload = "article-script";

// A problem with a reference file; what() names the file and the field, e.g.
// "article.json: field 'rows[2].stableMeanSeconds' must be above 0 (got 0)".
class PublishedError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Who published the numbers, and with what.
struct PublishedSource {
    std::string title;     // what was published (as the source names it)
    std::string shortName; // in labels: "article" gives "article: Tesla T4 (Kaggle notebook)"
    std::string note;      // what the source does not state (versions, CPU models, drivers)
    // The program that made the numbers, as a RunRecord::workload: "article-script", "faithful",
    // "tuned", or another tool's name (then no DeviceBench run is like for like with it).
    std::string program;
    std::string url; // optional; "" when none
};

// The settings every row of a file was measured at (the RunConfig / RunRecord fields).
struct PublishedSettings {
    std::string model = kDefaultModel;
    int batchSize = kDefaultBatchSize;
    int epochs = kDefaultEpochs;
    int warmupEpochs = kDefaultWarmupEpochs; // the stable mean is over the epochs after these
    double learningRate = kDefaultLearningRate;
    Precision precision = Precision::Float32;
    int imageSize = kDefaultImageSize;
    std::int64_t trainImages = 50000; // images per epoch actually used
    std::int64_t testImages = 10000;
};

// One published measurement.
struct PublishedRow {
    std::string device;               // as published: "Tesla T4", "home desktop CPU"
    std::string deviceKind;           // "cuda" or "cpu"
    std::string where;                // where it ran: "Kaggle notebook", "local JupyterLab"
    double stableMeanSeconds = 0.0;   // > 0
    std::vector<double> epochSeconds; // every epoch when published; empty: none published
};

// One reference file.
struct PublishedSet {
    std::string file;     // the path it was read from
    bool builtIn = false; // from resourceDir()/published (resource_files.h)
    PublishedSource source;
    PublishedSettings settings;
    std::vector<PublishedRow> rows; // at least one
};

// "<shortName>: <device> (<where>)", e.g. "article: Tesla T4 (Kaggle notebook)". UTF-8.
std::string publishedLabel(const PublishedSet &set, const PublishedRow &row);

// Parses a reference file's text; `source` names it in errors. Throws PublishedError for text
// that is not JSON, another schema version (says which), a missing field, a field of the wrong
// type, or a value that cannot be (a stable mean not above 0, a device kind other than cuda or
// cpu, settings no run can have (epochs or batch size below 1, a learning rate not above 0,
// warm-up not below the epochs, an image size other than 32, 64, 128, no images), epochSeconds
// not one per epoch).
PublishedSet parsePublished(const std::string &json, const std::string &source);

// Reads and parses a file. Throws PublishedError naming `path`: missing, unreadable, larger
// than kMaxPublishedBytes, or any parsePublished error.
PublishedSet readPublished(const std::string &path);

// A folder of reference files.
struct PublishedFolder {
    std::string path;
    bool builtIn = false;
};

// The folders read, in order: the built-in resourceDir()/published, the user's
// userDataDir()/published, then `extraDir` when not "" (--published-dir).
std::vector<PublishedFolder> publishedFolders(const std::string &extraDir = "");

// What loadPublished found.
struct PublishedLoad {
    std::vector<PublishedSet> sets;    // every file that parsed, folder by folder, by file name
    std::vector<std::string> problems; // one message per file that did not (PublishedError's)
    bool builtInFound = false;         // a built-in folder gave at least one set
};

// Reads every "*.json" of each folder. A folder that does not exist gives nothing (no
// problem); a bad file is skipped with its message and the others still load; a file met
// twice (the same path through two folders) is read once.
PublishedLoad loadPublished(const std::vector<PublishedFolder> &folders);

// How a run stands against a published set.
enum class PublishedMatch {
    LikeForLike,   // the set's program at the set's settings on the whole data set
    OtherProgram,  // another workload (DeviceBench's faithful or tuned, ...)
    OtherSettings, // the set's program, at other settings
    NoRun,         // no run to hold it against (publishedBeside with an empty store)
};

struct PublishedComparability {
    PublishedMatch match = PublishedMatch::OtherProgram;
    // "like for like", "other program: DeviceBench's faithful workload, not the article's
    // script", "other settings: batch size 128 (published: 64), ..."
    std::string note;
    bool likeForLike() const { return match == PublishedMatch::LikeForLike; }
};

// A program (a RunRecord::workload) as the notes name it: "the article's script",
// "DeviceBench's faithful workload", "workload 'x'".
std::string publishedProgramName(const std::string &workload);

// Whether `record` ran the set's program (RunRecord::workload == source.program) at its
// settings (model, batch size, epochs, warm-up, learning rate, precision, image size, real data,
// all its training and test images), and if not, why.
PublishedComparability comparePublished(const PublishedSet &set, const RunRecord &record);

// The store's runs that are like for like with `set` (indices into store.runs()).
std::vector<int> likeForLikeRuns(const PublishedSet &set, const RunSet &store);

// Which of the store's runs are like for like with `set`, in one line, as the CLI and the
// dashboard say it: "like for like with the article (the article's script at the settings of
// article): #3", or "none of your runs is ...: its rows show where your runs stand, not a
// like-for-like speed-up (each row's note says what differs)"; "" when the store is empty.
std::string likeForLikeLine(const PublishedSet &set, const RunSet &store);

// One published row beside the runs in view.
struct PublishedEntry {
    int setIndex = 0;     // into the sets given to publishedBeside
    int rowIndex = 0;     // into that set's rows
    std::string label;    // publishedLabel
    double seconds = 0.0; // the row's stable mean
    // Against the baseline: baseline seconds / seconds (> 1: faster than the baseline); NaN
    // when there is none, or the baseline has no stable mean. No interval: none is published.
    double speedUp = 0.0;
    bool isBaseline = false;
    // Against the store's baseline run (comparePublished), also when a published row is the
    // baseline; with no runs in the store: NoRun, note "no run of yours to compare with".
    PublishedComparability comparability;
};

// Where the user's runs stand among the published rows.
struct PublishedBeside {
    std::vector<PublishedEntry> rows; // every row of every set, in order
    // Speed-up of each run in the store (same index) against the baseline; when the baseline
    // is a published row, its seconds / the run's stable mean, else the store's own speedUp.
    std::vector<double> runSpeedUps;
    int baselineRow = -1; // index into rows when a published row is the baseline, else -1
};

// Whether published rows belong beside the store's runs: not when every run is a user's own
// script, whose work (its model, data and loop) is not the rows' work. True when empty.
bool publishedBelongsBeside(const RunSet &store);

// Never a published baseline unless chosen: `publishedBaseline` -1 keeps the store's baseline
// (none when the store is empty); 0, 1, ... makes that row (counted over all sets' rows, in
// order) the baseline. Throws std::out_of_range for a row that does not exist.
PublishedBeside publishedBeside(const std::vector<PublishedSet> &sets, const RunSet &store,
                                int publishedBaseline = -1);

} // namespace devicebench
