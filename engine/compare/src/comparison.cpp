// SPDX-License-Identifier: MIT
#include "devicebench/comparison.h"
#include "devicebench/precision_text.h"

#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace devicebench {

namespace {

// ---- counting RunConfig's fields (C++17: the largest N for which RunConfig{x1, ..., xN}
// compiles, each x converting to any member type) ---------------------------------------------
struct AnyField {
    template <typename T> operator T() const; // NOLINT(google-explicit-constructor): unevaluated
};
template <typename T, typename Seq, typename = void> struct BraceConstructible : std::false_type {};
// An optional member converts from AnyField two ways (GCC's -Wconversion says which it chose);
// either way it is one field, and nothing here is evaluated.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
template <typename T, std::size_t... I>
struct BraceConstructible<T, std::index_sequence<I...>,
                          std::void_t<decltype(T{(static_cast<void>(I), AnyField{})...})>>
    : std::true_type {};
#pragma GCC diagnostic pop
template <typename T, std::size_t N = 0> constexpr std::size_t aggregateFieldCount() {
    if constexpr (BraceConstructible<T, std::make_index_sequence<N + 1>>::value) {
        return aggregateFieldCount<T, N + 1>();
    } else {
        return N;
    }
}

bool dataDiffers(const RunRecord &a, const RunRecord &b) {
    const DataMatch m = compareData(a, b);
    return m == DataMatch::Different || m == DataMatch::Unknown;
}

void setImages(RunRecord &r, std::int64_t train, std::int64_t test) {
    r.config.trainImages = r.started.trainImages = r.data.trainImages = train;
    r.config.testImages = r.started.testImages = r.data.testImages = test;
}

// THE table (comparison.h, ComparisonRule). Order: the order of workloadDifferences' names.
// Compared rows first, then the settings declared irrelevant to timing.
const std::vector<ComparisonRule> kComparisonRules = {
    // The record's text (RunRecord::model, written from RunConfig::model; a record from another
    // tool may name a model this version does not know: it stays as text).
    {"model", true, "model", "another network is another computation",
     [](const RunRecord &a, const RunRecord &b) { return a.model != b.model; },
     [](RunRecord &r) { r.model = r.config.model = "resnet18"; }},
    {"imageSize", true, "image size", "pixels per image: the work of every layer",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.imageSize != b.config.imageSize;
     },
     [](RunRecord &r) { r.config.imageSize = r.config.imageSize == 32 ? 64 : 32; }},
    {"phases", true, "phase timing",
     "a phase-timed run synchronises the device at every phase of every step",
     [](const RunRecord &a, const RunRecord &b) { return a.config.phases != b.config.phases; },
     [](RunRecord &r) { r.config.phases = !r.config.phases; }},
    {"batchSize", true, "batch size", "images per step: steps per epoch and work per step",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.batchSize != b.config.batchSize;
     },
     [](RunRecord &r) { r.config.batchSize += 1; }},
    // Exact: both come from the same decimal text, printed back with full precision.
    {"learningRate", true, "learning rate", "another training trajectory (losses, divergence)",
     [](const RunRecord &a, const RunRecord &b) {
         const double x = a.config.learningRate, y = b.config.learningRate;
         return x != y && !(std::isnan(x) && std::isnan(y)); // NaN: a script did not say
     },
     [](RunRecord &r) { r.config.learningRate *= 2.0; }},
    {"epochs", true, "epochs", "how many epochs the means are over",
     [](const RunRecord &a, const RunRecord &b) { return a.config.epochs != b.config.epochs; },
     [](RunRecord &r) { r.config.epochs += 1; }},
    {"synthetic", true, "data set",
     "generated or real data; with the data identity (variant, whole-file hash): other data",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.synthetic != b.config.synthetic || dataDiffers(a, b);
     },
     [](RunRecord &r) {
         r.config.synthetic = !r.config.synthetic;
         r.data.variant = r.config.synthetic ? "synthetic" : "cifar-10-binary";
         r.data.contentHash =
             r.config.synthetic ? ""
                                : std::string(kDataHashPrefix) + "00000000000000000000000000000001";
     }},
    // The images actually used (the config's 0 means the whole split).
    {"trainImages", true, "training images", "images per training pass",
     [](const RunRecord &a, const RunRecord &b) {
         return a.data.trainImages != b.data.trainImages;
     },
     [](RunRecord &r) { setImages(r, r.data.trainImages / 2, r.data.testImages); }},
    {"testImages", true, "test images", "images per test pass",
     [](const RunRecord &a, const RunRecord &b) { return a.data.testImages != b.data.testImages; },
     [](RunRecord &r) { setImages(r, r.data.trainImages, r.data.testImages / 2); }},
    // The record's text (RunRecord::precision, written from RunConfig::precision). A name this
    // version does not know is never comparable, not even with the same name.
    {"precision", true, "precision",
     "another arithmetic (mixed precision): a precision comparison, not a device comparison",
     [](const RunRecord &a, const RunRecord &b) {
         return a.precision != b.precision || !isRecordedPrecision(a.precision) ||
                !isRecordedPrecision(b.precision);
     },
     [](RunRecord &r) {
         r.config.precision =
             r.config.precision == Precision::Float32 ? Precision::BFloat16 : Precision::Float32;
         r.precision = toString(r.config.precision);
     }},
    // The setting, on any device: "default" is LibTorch's own (the fingerprint records what
    // it was); a run that set it on or off is not compared with one that left it.
    {"tf32", true, "TF32",
     "float32 products and convolutions in TensorFloat-32 on CUDA devices of compute "
     "capability 8.0 and later",
     [](const RunRecord &a, const RunRecord &b) { return a.config.tf32 != b.config.tf32; },
     [](RunRecord &r) { r.config.tf32 = r.config.tf32 == Tf32::On ? Tf32::Off : Tf32::On; }},
    // The record's text (a record from another tool may name a workload this version does not
    // know: it stays as text, and makes the runs not comparable).
    {"workload", true, "workload",
     "how the same training is computed (faithful, tuned, the article's script, or a user's "
     "script)",
     [](const RunRecord &a, const RunRecord &b) { return a.workload != b.workload; },
     [](RunRecord &r) {
         r.config.workload =
             r.config.workload == Workload::Tuned ? Workload::Faithful : Workload::Tuned;
         r.workload = toString(r.config.workload);
     }},
    {"dataOnDevice", true, "data on device", "CUDA: no host-to-device copy in the timed steps",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.dataOnDevice != b.config.dataOnDevice;
     },
     [](RunRecord &r) { r.config.dataOnDevice = !r.config.dataOnDevice; }},
    {"lossFetchInterval", true, "loss fetch interval",
     "on a GPU every fetch of the step losses synchronises the device",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.lossFetchInterval != b.config.lossFetchInterval;
     },
     [](RunRecord &r) { r.config.lossFetchInterval = r.config.lossFetchInterval == 1 ? 50 : 1; }},
    // A user's script (workload script): what it holds and what it is told are its model, data
    // and batches. Runs of no script have "" and no arguments.
    {"scriptHash", true, "script", "another script (its file's content hash) is another program",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.scriptHash != b.config.scriptHash;
     },
     [](RunRecord &r) {
         r.config.scriptHash = std::string(kDataHashPrefix) + "00000000000000000000000000000002";
     }},
    {"scriptArgs", true, "script arguments",
     "the script's own settings: its model, data, batch size, ...",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.scriptArgs != b.config.scriptArgs;
     },
     [](RunRecord &r) { r.config.scriptArgs.push_back("--other"); }},
    // What else the script ran: the modules of its own folder it imported (RunStarted's, not a
    // setting). A record from before they were recorded has none: it differs from one that has.
    {"scriptFiles", false, "the script's local modules",
     "another version of a module the script imports (models/, utils.py) is another program",
     [](const RunRecord &a, const RunRecord &b) {
         return a.started.scriptFiles != b.started.scriptFiles;
     },
     [](RunRecord &r) {
         r.started.scriptFiles = {{"models/net.py", "0123"}};
         r.started.scriptFilesRecorded = true;
     }},
    // ---- declared irrelevant to timing: runs that differ in these stay comparable ----------
    {"device", true, nullptr, "the hardware under comparison", nullptr,
     [](RunRecord &r) { r.config.device = r.started.device = "cuda:0"; }},
    {"threads", true, nullptr, "CPU threads: a setting of the hardware under comparison", nullptr,
     [](RunRecord &r) {
         r.config.threads += 1;
         r.started.threads += 1;
     }},
    {"warmupEpochs", true, nullptr,
     "which epochs the summary leaves out, not how they run; the comparison can apply one "
     "setting to every run (RunSet::setWarmupEpochs)",
     nullptr, [](RunRecord &r) { r.config.warmupEpochs = r.config.warmupEpochs == 0 ? 1 : 0; }},
    {"seed", true, nullptr,
     "initial weights only: the same operations on the same shapes each step (the test-loss "
     "control pairs runs of one seed)",
     nullptr, [](RunRecord &r) { r.config.seed += 1; }},
    {"dataDir", true, nullptr,
     "where the files are; what they hold is compared as the data set (whole-file hash)", nullptr,
     [](RunRecord &r) { r.config.dataDir = r.data.path = "/elsewhere/cifar"; }},
    {"python", true, nullptr,
     "the interpreter that runs the article's script; its torch is in the fingerprint, its "
     "program is the workload",
     nullptr, [](RunRecord &r) { r.config.python = "/opt/other/bin/python3"; }},
    {"script", true, nullptr,
     "where the script is; what it holds is compared as its hash (scriptHash)", nullptr,
     [](RunRecord &r) { r.config.script = "/elsewhere/train.py"; }},
    {"scriptStartSeconds", true, nullptr, "a limit on the script's set-up, before its first epoch",
     nullptr, [](RunRecord &r) { r.config.scriptStartSeconds += 1; }},
    {"targetAccuracy", true, "target accuracy",
     "when the run stops (time to accuracy): times to different targets, or a time to target and "
     "a run without one, are different measures",
     [](const RunRecord &a, const RunRecord &b) {
         return a.config.targetAccuracy != b.config.targetAccuracy;
     },
     [](RunRecord &r) { r.config.targetAccuracy = r.config.targetAccuracy.value_or(50.0) + 1.0; }},
};

constexpr std::size_t kRunConfigFieldCount = 25;
static_assert(aggregateFieldCount<RunConfig>() == kRunConfigFieldCount,
              "RunConfig gained or lost a field: give it a row in kComparisonRules (compared, "
              "or irrelevant to timing and why), then update kRunConfigFieldCount");

} // namespace

DataMatch compareData(const RunRecord &a, const RunRecord &b) {
    if (a.data.variant != b.data.variant) {
        return DataMatch::Different;
    }
    if (a.data.variant == "synthetic") {
        return DataMatch::Same; // generated from the seed-free recipe (cifar10.h)
    }
    if (a.data.variant == "script") {
        return DataMatch::Same; // the script's own: compared as the script and its arguments
    }
    const DataHashMethod ma = dataHashMethod(a.data.contentHash);
    const DataHashMethod mb = dataHashMethod(b.data.contentHash);
    if (ma == mb && (ma == DataHashMethod::WholeFilesXxh3 || ma == DataHashMethod::PrefixFnv1a)) {
        if (a.data.contentHash != b.data.contentHash) {
            return DataMatch::Different;
        }
        return ma == DataHashMethod::WholeFilesXxh3 ? DataMatch::Same
                                                    : DataMatch::SameByOlderMethod;
    }
    return DataMatch::Unknown;
}

std::string dataNote(DataMatch match) {
    switch (match) {
    case DataMatch::Same:
        return {};
    case DataMatch::SameByOlderMethod:
        return "data identity from older records (first 4 KiB of each file only): data that "
               "differs beyond that would not show";
    case DataMatch::Different:
        return "data set";
    case DataMatch::Unknown:
        return "data set (identity unknown: a record from an older version)";
    }
    return {};
}

const std::vector<ComparisonRule> &comparisonRules() { return kComparisonRules; }

std::size_t runConfigFieldCount() { return aggregateFieldCount<RunConfig>(); }

std::vector<std::string> workloadDifferences(const RunRecord &a, const RunRecord &b) {
    std::vector<std::string> names;
    for (const ComparisonRule &rule : kComparisonRules) {
        if (rule.differs == nullptr || !rule.differs(a, b)) {
            continue;
        }
        std::string name = rule.differenceName;
        if (name == "data set" && compareData(a, b) == DataMatch::Unknown &&
            a.config.synthetic == b.config.synthetic) {
            name = dataNote(DataMatch::Unknown);
        }
        names.push_back(name);
    }
    return names;
}

bool comparedByTimeToTarget(const RunRecord &a, const RunRecord &b) {
    return a.config.targetAccuracy && a.config.targetAccuracy == b.config.targetAccuracy;
}

std::vector<std::string> comparisonDifferences(const RunRecord &a, const RunRecord &b) {
    std::vector<std::string> names = workloadDifferences(a, b);
    if (!comparedByTimeToTarget(a, b))
        return names;
    // What still divides runs of one target: the test set ("data set", with its note when the
    // identity is unknown; "test images") and phase timing.
    const auto recipe = [](const std::string &name) {
        return name.rfind("data set", 0) != 0 && name != "test images" && name != "phase timing";
    };
    names.erase(std::remove_if(names.begin(), names.end(), recipe), names.end());
    return names;
}

SpeedUp speedUp(const Summary &baseline, const Summary &run) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    SpeedUp s{nan, nan, nan};
    if (!baseline.hasStable || !run.hasStable || !(run.stableMean > 0.0)) {
        return s;
    }
    s.ratio = baseline.stableMean / run.stableMean;
    // On the logarithm of the times: log(speed-up) = mean log(baseline) - mean log(run), with
    // Welch's standard error and degrees of freedom (Welch-Satterthwaite, rounded down), then
    // back-transformed, so both ends are above 0. Needs 2 or more stable epochs in each.
    const double vb = baseline.logStddev * baseline.logStddev / baseline.stableCount;
    const double vr = run.logStddev * run.logStddev / run.stableCount;
    if (!std::isfinite(vb) || !std::isfinite(vr) || !std::isfinite(baseline.logMean) ||
        !std::isfinite(run.logMean) || baseline.stableCount < 2 || run.stableCount < 2) {
        return s;
    }
    const double difference = baseline.logMean - run.logMean;
    const double se = std::sqrt(vb + vr);
    if (!(se > 0.0)) { // every epoch of both runs took the same time
        s.low = s.high = std::exp(difference);
        return s;
    }
    const double df = welchDegreesOfFreedom(baseline, run);
    const double t = studentT975(std::max(1, static_cast<int>(std::floor(df))));
    s.low = std::exp(difference - t * se);
    s.high = std::exp(difference + t * se);
    return s;
}

double welchDegreesOfFreedom(const Summary &a, const Summary &b) {
    if (a.stableCount < 2 || b.stableCount < 2) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const double va = a.logStddev * a.logStddev / a.stableCount;
    const double vb = b.logStddev * b.logStddev / b.stableCount;
    return (va + vb) * (va + vb) / (va * va / (a.stableCount - 1) + vb * vb / (b.stableCount - 1));
}

bool hasTestLoss(const RunRecord &record, const EpochResult &e) {
    return std::isfinite(e.testLoss) || record.status == "diverged";
}

double maxTestLossDifference(const RunRecord &a, const RunRecord &b) {
    double largest = std::numeric_limits<double>::quiet_NaN();
    for (const auto &ea : a.epochs) {
        for (const auto &eb : b.epochs) {
            if (ea.epoch != eb.epoch || !hasTestLoss(a, ea) || !hasTestLoss(b, eb)) {
                continue;
            }
            double d = std::fabs(ea.testLoss - eb.testLoss);
            if (!std::isfinite(d)) {
                // One run diverged (NaN/inf loss) where the other did not, or both did: they
                // did not compute the same thing.
                d = std::numeric_limits<double>::infinity();
            }
            largest = std::isnan(largest) ? d : std::max(largest, d);
        }
    }
    return largest;
}

double achievedGflops(const RunRecord &record, const Summary &summary) {
    const RunStarted &s = record.started;
    if (s.multiplyAddsPerImage <= 0 || !summary.hasStable || !(summary.stableMean > 0.0)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    constexpr double kTrainFlopPerMultiplyAdd = 6.0; // forward + backward (2x), 2 FLOP each
    constexpr double kTestFlopPerMultiplyAdd = 2.0;  // forward only
    const double flopPerEpoch = (static_cast<double>(s.trainImages) * kTrainFlopPerMultiplyAdd +
                                 static_cast<double>(s.testImages) * kTestFlopPerMultiplyAdd) *
                                static_cast<double>(s.multiplyAddsPerImage);
    return flopPerEpoch / summary.stableMean / 1e9;
}

} // namespace devicebench
