// SPDX-License-Identifier: MIT
// Reading runs side by side: which settings make two records not comparable, speed-ups as
// ratios of stable means with their interval, and the labels runs are shown by. The rules and
// their formulas: docs/MEASURING.md. LibTorch-free header.
#pragma once

#include "devicebench/run_record.h"

#include <cstddef>
#include <string>
#include <vector>

namespace devicebench {

// Whether two records ran on the same data (DataIdentity, run_record.h).
enum class DataMatch {
    Same,              // same variant, and the same whole-file hash (or both synthetic)
    SameByOlderMethod, // both hashed by the older method (first 4 KiB of each file) and equal:
                       // the same as far as those records can tell; dataNote says so
    Different,         // another variant, or hashes by one method that differ
    Unknown,           // the hashes cannot be held against each other: one by the older
                       // method and one by this version's, or one missing or of another form
};
DataMatch compareData(const RunRecord &a, const RunRecord &b);

// The text shown for `match`: "data set" (Different), "data set (identity unknown: ...)"
// (Unknown), the note "data identity from older records ..." (SameByOlderMethod), "" (Same).
std::string dataNote(DataMatch match);

// One row of the comparison table (comparison.cpp's kComparisonRules, the one place that
// decides): a field of RunConfig, or the record's model, precision or data identity, and
// whether runs that differ in it stay comparable. A static_assert there counts RunConfig's
// fields, so a new setting does not build until it has a row.
struct ComparisonRule {
    // The RunConfig member ("lossFetchInterval"), or the record field ("model") when the row is
    // not about the run configuration.
    const char *field;
    bool configField; // true: a member of RunConfig (run_types.h)
    // Shown when two runs differ in it ("loss fetch interval"); nullptr when the field is
    // declared irrelevant to timing: runs may differ in it and stay comparable.
    const char *differenceName;
    const char *why; // what it changes, or why it may differ
    // Compared rows: whether a and b differ in it. nullptr for irrelevant rows.
    bool (*differs)(const RunRecord &a, const RunRecord &b);
    // Sets the field (and what a run derives from it) to another valid value, for the tests
    // that hold every row against the record.
    void (*vary)(RunRecord &record);
};
const std::vector<ComparisonRule> &comparisonRules();

// The number of members of RunConfig, counted by the compiler, for the test that each has one
// row.
std::size_t runConfigFieldCount();

// The differenceNames of the fields in which two records differ, in table order ("model",
// "batch size", ...); empty: the runs are comparable.
std::vector<std::string> workloadDifferences(const RunRecord &a, const RunRecord &b);

// Whether `a` and `b` are compared by time to accuracy: both have a target, the same one
// (RunConfig::targetAccuracy; docs/MEASURING.md, "Time to accuracy").
bool comparedByTimeToTarget(const RunRecord &a, const RunRecord &b);

// What makes `a` and `b` not comparable, as workloadDifferences names it. Runs compared by time
// to target are comparable by what they deliver whatever their recipe (precision, batch size,
// learning rate, model, workload, ...): only a different test set (its images, the data) or
// phase timing divides them. Other runs: workloadDifferences.
std::vector<std::string> comparisonDifferences(const RunRecord &a, const RunRecord &b);

// Speed-up of `run` against `baseline`: baseline.stableMean / run.stableMean (> 1: faster),
// with a 95% interval computed on the log of the times (Welch), so it stays above 0 (formula:
// docs/MEASURING.md, "Intervals"). low and high NaN when either run has fewer than 2 stable
// epochs or an epoch not above 0 s; all three NaN without stable epochs.
struct SpeedUp {
    double ratio = 0.0;
    double low = 0.0;
    double high = 0.0;
};
SpeedUp speedUp(const Summary &baseline, const Summary &run);

// Welch-Satterthwaite degrees of freedom of the difference of the two log means (before
// rounding); NaN when either has fewer than 2 stable epochs.
double welchDegreesOfFreedom(const Summary &a, const Summary &b);

// Whether epoch `e` of `record` holds a test loss to compare: a finite one, or one that is not
// finite because the run diverged. A test loss the run did not report (null in a run that did
// not diverge: a script that reports accuracy only) is "not reported": no difference, and so no
// verdict, is drawn from it.
bool hasTestLoss(const RunRecord &record, const EpochResult &e);

// Largest |test loss difference| (nats) over the epochs both runs finished with a test loss
// (hasTestLoss), matched by number; NaN if none in common; +infinity when a test loss is not
// finite in either run (diverged).
double maxTestLossDifference(const RunRecord &a, const RunRecord &b);

// Above this, maxTestLossDifference is shown as a warning: the runs did not compute the same
// thing (float rounding across devices stays orders of magnitude below it).
inline constexpr double kTestLossWarning = 1e-2;

// A run's name in tables and charts: the machine ("CPU x8 @ laptop"; a job record's
// jobMachineLabel; "rank 1 of 2: CPU x1 @ host-a" for a rank record), then modelLabel(),
// " · batch 32" (a batch size other than the article's 64), the precision, " (tuned)",
// " (phase-timed)", " [synthetic]" where they apply. UTF-8.
std::string runLabel(const RunRecord &record);

// A data-parallel job's machine: "2 x CPU (1 thread), Gloo @ host-a", "8 x NVIDIA H200, NCCL
// @ 8 hosts" (threads per rank on CPUs; a range when the ranks differ). For a record that is
// not a job record: machineLabel (fingerprint.h).
std::string jobMachineLabel(const RunRecord &record);

// The kind of device a record ran on, without host or count: "CPU", or the GPU's name
// ("NVIDIA H200") from the fingerprint, else RunStarted::deviceName, else the device text.
std::string deviceKind(const RunRecord &record);

// A c10d back end's name as shown: "gloo" -> "Gloo", "nccl" -> "NCCL"; other text as it is.
std::string backendLabel(const std::string &backend);

// The model and image size where they are not the article's: " · resnet18", " · 64 px", both,
// or "" for small-cnn at 32 x 32; a script run's scriptWorkText: " · train.py: ResNet". UTF-8.
std::string modelLabel(const RunRecord &record);

// What a script run trained, as a person knows it: the file name of `script` (a path), then
// the model as the script named it and the wrapper it ran in, from `started` ("train.py: ResNet
// in DataParallel"; "train.py" when the script named no model). UTF-8.
std::string scriptWorkText(const std::string &script, const RunStarted &started);

// What a run trained, in a sentence: the model's name ("small-cnn"), or a script run's
// scriptWorkText ("train.py: ResNet in DataParallel"). UTF-8, shown safely (displayText).
std::string trainedName(const RunRecord &record);

// Achieved throughput in GFLOP/s: (trainImages x 6 + testImages x 2) x multiplyAddsPerImage /
// stable mean / 1e9 (docs/MEASURING.md says why 6 and 2). NaN when the record does not know
// its model's multiply-adds or there is no stable epoch.
double achievedGflops(const RunRecord &record, const Summary &summary);

} // namespace devicebench
