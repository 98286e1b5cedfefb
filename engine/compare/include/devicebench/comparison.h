// SPDX-License-Identifier: MIT
// Reading runs side by side (MEASURING.md, lesson 1: change only the hardware; rules:
// speed-ups are ratios of stable means, with their interval). LibTorch-free header.
#pragma once

#include "devicebench/run_record.h"

#include <cstddef>
#include <string>
#include <vector>

namespace devicebench {

// Whether two records ran on the same data (DataIdentity, run_record.h).
enum class DataMatch {
    Same,              // same variant, and the same whole-file hash (or both synthetic)
    SameByOlderMethod, // both hashed by the method before issue #15 (first 4 KiB of each file)
                       // and equal: the same as far as those records can tell; dataNote says so
    Different,         // another variant, or hashes by one method that differ
    Unknown,           // the hashes cannot be held against each other: one by the older
                       // method and one by this version's, or one missing or of another form
};
DataMatch compareData(const RunRecord &a, const RunRecord &b);

// What is shown for a DataMatch other than Same in the list of differences, or in a note:
//   Different: "data set"
//   Unknown:   "data set (identity unknown: a record from an older version)"
// SameByOlderMethod (comparable, a note, dataNote()): "data identity from older records (first
// 4 KiB of each file only): data that differs beyond that would not show"
// Same: "".
std::string dataNote(DataMatch match);

// One entry of the comparison table: a field of the record (each field of RunConfig, plus the
// record's model, precision and data identity), and whether runs that differ in it are
// comparable. The single place where that is decided: comparison.cpp's kComparisonRules. A
// static_assert there counts RunConfig's fields, so a new setting does not build until it
// has a row (tests/engine/comparison_test.cpp, ComparisonRules.*, checks each row).
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
    // Sets the field (and what a real run derives from it, e.g. the data identity's image
    // counts) to another valid value. For the tests that hold every row against the record.
    void (*vary)(RunRecord &record);
};
const std::vector<ComparisonRule> &comparisonRules();

// The number of members of RunConfig, counted by the compiler (aggregate initialisation), for
// the test that every one has exactly one row.
std::size_t runConfigFieldCount();

// The fields in which two records differ, by differenceName in table order: "model",
// "batch size", "learning rate", "epochs", "data set" (variant or whole-file hash; or
// "data set (identity unknown: ...)", see DataMatch), "training images", "test images",
// "precision", "workload", "data on device", "loss fetch interval". Empty: the runs are
// comparable (only the device, threads, seed, warm-up setting or data folder differ).
std::vector<std::string> workloadDifferences(const RunRecord &a, const RunRecord &b);

// Speed-up of `run` against `baseline`: baseline.stableMean / run.stableMean (> 1: faster).
// Its 95% interval is computed on the logarithm of the times, so it never reaches 0 or below:
// exp(d -+ t(0.975, df) * se), with d = baseline.logMean - run.logMean, se = sqrt(sb^2/nb +
// sr^2/nr) (s the Summary::logStddev, n the stable counts) and df Welch-Satterthwaite's
// (welchDegreesOfFreedom, rounded down, at least 1). Source: docs/MEASURING.md. low = high =
// exp(d) when every epoch of both took the same time; low and high NaN when either run has
// fewer than 2 stable epochs or an epoch not above 0 s. No stable epochs in either summary:
// all three NaN.
struct SpeedUp {
    double ratio = 0.0;
    double low = 0.0;
    double high = 0.0;
};
SpeedUp speedUp(const Summary &baseline, const Summary &run);

// Welch-Satterthwaite degrees of freedom of the difference of the two log means (before
// rounding); NaN when either has fewer than 2 stable epochs.
double welchDegreesOfFreedom(const Summary &a, const Summary &b);

// Largest |test loss difference| over the epochs both runs finished (matched by epoch number);
// NaN if none in common; +infinity when a test loss is NaN/inf in either run (diverged).
// Same config and seed on two devices should differ only by float rounding.
double maxTestLossDifference(const RunRecord &a, const RunRecord &b);

// Above this, maxTestLossDifference is shown as a warning: the runs did not compute the same
// thing (float rounding across devices stays orders of magnitude below it).
inline constexpr double kTestLossWarning = 1e-2;

// The machine part, then modelLabel(record) (e.g. " · resnet18 · 64 px"), " (tuned)" appended
// for a workload other than "faithful", " (phase-timed)" for a phase-timed run
// (RunConfig::phases), and " [synthetic]" for a run on synthetic data. The machine part:
//   a single-process run: machineLabel of the record's fingerprint, device and threads:
//     "Tesla T4 @ host-a", "CPU x8 @ laptop";
//   a data-parallel job record (DistributedInfo::isJob, issue 14): jobMachineLabel(record):
//     "2 x CPU (1 thread), Gloo @ host-a", "8 x NVIDIA H200, NCCL @ node-1";
//   a rank record of a job: "rank <r> of <world size>: " + its machineLabel, e.g.
//     "rank 1 of 2: CPU x1 @ host-a" (its own clock: not a device of its own).
std::string runLabel(const RunRecord &record);

// A data-parallel job's machine (issue 14's "2 x CPU (1 thread), Gloo"), from its job record:
// "<world size> x <deviceKind>" then, on the CPU, " (<n> thread[s])" per rank (" (1-2
// threads)", with an en dash, when the ranks differ), ", <back end>" ("Gloo", "NCCL", or the
// record's text for another), and " @ <host>" when the ranks ran on one host, " @ <n> hosts"
// on several (hosts: DistributedInfo::ranks; the fingerprint's host when the list is empty).
// For a record that is not a job record: machineLabel (fingerprint.h).
std::string jobMachineLabel(const RunRecord &record);

// The kind of device a record ran on, without host or count: "CPU" for "cpu"; for "cuda" or
// "cuda:<i>" the name of GPU <i> in the record's fingerprint ("NVIDIA H200"), else
// RunStarted::deviceName, else the device text ("cuda:3"). The device: RunStarted::device
// (RunConfig::device before the run started); a job record's is rank 0's.
std::string deviceKind(const RunRecord &record);

// A c10d back end's name as shown: "gloo" -> "Gloo", "nccl" -> "NCCL"; other text as it is.
std::string backendLabel(const std::string &backend);

// The model and image size of a run where they are not the article's (issue 13): " · <model>"
// when record.model is not "small-cnn", then " · <S> px" when config.imageSize is not 32; ""
// for the article's small-cnn at 32 x 32. UTF-8 (the middle dot is U+00B7).
std::string modelLabel(const RunRecord &record);

// Achieved throughput of a run, in GFLOP/s (10^9 floating-point operations per second):
//   (trainImages x 6 + testImages x 2) x multiplyAddsPerImage / stableMean / 1e9
// with the images per epoch and the forward multiply-adds per image of `record.started`
// (models.h counts them from the layers) and the stable mean seconds per epoch of `summary`.
// One multiply-add is 2 FLOP; a training image costs its forward pass and a backward pass of
// about twice the forward's work (gradients of the inputs and of the weights): 3 x 2 = 6 FLOP
// per multiply-add; a test image its forward pass only: 2. Only the counted layers' work
// (convolutions, linear layers, attention products), so it understates the device's work a
// little. NaN when the multiply-adds are unknown (0: a record written before they were
// recorded, of a model other than small-cnn) or there is no stable epoch.
double achievedGflops(const RunRecord &record, const Summary &summary);

} // namespace devicebench
