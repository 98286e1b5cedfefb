// SPDX-License-Identifier: MIT
// The report's data (html_report.h): the comparison document, the answer sentence, decimated
// loss curves, System readings and each run's fingerprint.
#include "devicebench/html_report.h"

#include "devicebench/comparison.h"
#include "devicebench/time_to_target.h"
#include "devicebench/version.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace devicebench {
namespace {

std::string fixedText(double value, int decimals) {
    if (!std::isfinite(value))
        return "n/a";
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// " [1.45, 2.29]" or "" when the interval does not exist (an unbounded end is "inf").
std::string intervalText(double low, double high, int decimals) {
    if (std::isnan(low) || std::isnan(high))
        return "";
    return " [" + fixedText(low, decimals) + ", " +
           (std::isinf(high) ? std::string("inf") : fixedText(high, decimals)) + "]";
}

// The group that answers "how much faster": the largest speed-up against the baseline group
// among the others comparable with it, else among all others; -1 when none has a speed-up.
int fastestOther(const RunGroups &groups) {
    int best = -1;
    for (const bool comparableOnly : {true, false}) {
        for (std::size_t i = 0; i < groups.groups.size(); ++i) {
            const RunGroup &g = groups.groups[i];
            if (g.isBaseline || !std::isfinite(g.speedUp.ratio) ||
                (comparableOnly && !g.differences.empty()))
                continue;
            if (best < 0 ||
                g.speedUp.ratio > groups.groups[static_cast<std::size_t>(best)].speedUp.ratio)
                best = static_cast<int>(i);
        }
        if (best >= 0)
            return best;
    }
    return best;
}

// `value` rounded to a multiple of 1 / `scale` (the curves need no more digits).
double rounded(double value, double scale) { return std::round(value * scale) / scale; }

OrderedJson number(double value) {
    return std::isfinite(value) ? OrderedJson(value) : OrderedJson(nullptr);
}

// Where a step sits on the curves' axis, in epochs: its (whole-run) step number over the steps
// per epoch (stepsPerEpochOf).
double epochPosition(const TimedStepLoss &step, std::int64_t stepsPerEpoch) {
    return static_cast<double>(step.step) / static_cast<double>(stepsPerEpoch);
}

// Bucket means of a run's step losses, at most `points` of them; a bucket without a finite
// loss is null (a gap in the curve).
OrderedJson stepCurve(const RunRecord &record, std::size_t points) {
    const std::vector<TimedStepLoss> &steps = record.steps;
    const std::size_t size = std::max<std::size_t>(1, (steps.size() + points - 1) / points);
    const std::int64_t perEpoch = stepsPerEpochOf(record);
    OrderedJson curve = OrderedJson::array();
    for (std::size_t start = 0; start < steps.size(); start += size) {
        const std::size_t end = std::min(steps.size(), start + size);
        double x = 0.0, sum = 0.0;
        std::size_t finite = 0;
        for (std::size_t i = start; i < end; ++i) {
            x += epochPosition(steps[i], perEpoch);
            if (std::isfinite(steps[i].loss)) {
                sum += steps[i].loss;
                ++finite;
            }
        }
        const double position = rounded(x / static_cast<double>(end - start), 1e4);
        curve.push_back({position, finite > 0
                                       ? number(rounded(sum / static_cast<double>(finite), 1e5))
                                       : OrderedJson(nullptr)});
    }
    return curve;
}

OrderedJson testCurve(const RunRecord &record) {
    OrderedJson curve = OrderedJson::array();
    for (const EpochResult &e : record.epochs)
        curve.push_back({e.epoch, number(e.testLoss)});
    return curve;
}

// Test accuracy (percent) against the wall seconds from the first step (accuracyOverTime), to a
// thousandth; a run's "reachedAt" is rounded alike, so that the page finds its point.
OrderedJson accuracyCurve(const RunRecord &record) {
    OrderedJson curve = OrderedJson::array();
    for (const AccuracyPoint &p : accuracyOverTime(record.epochs))
        curve.push_back({rounded(p.seconds, 1e3), rounded(p.accuracy, 1e3)});
    return curve;
}

struct Quantity {
    const char *name;
    const char *unit;
    double SystemSample::*member;
};

const Quantity kQuantities[] = {
    {"CPU cores busy (this run)", "cores", &SystemSample::processCores},
    {"CPU cores busy (machine)", "cores", &SystemSample::machineCores},
    {"memory (this run)", "bytes", &SystemSample::rssBytes},
    {"GPU busy", "fraction", &SystemSample::gpuUtilization},
    {"GPU memory", "bytes", &SystemSample::gpuMemoryBytes},
    {"GPU power", "W", &SystemSample::gpuPowerWatts},
};

// Mean and max of each quantity the run's samples hold.
OrderedJson systemReadings(const RunRecord &record) {
    OrderedJson readings = OrderedJson::array();
    for (const Quantity &q : kQuantities) {
        double sum = 0.0, max = -std::numeric_limits<double>::infinity();
        std::size_t count = 0;
        for (const SystemSample &s : record.samples) {
            const double v = s.*q.member;
            if (!std::isfinite(v))
                continue;
            sum += v;
            max = std::max(max, v);
            ++count;
        }
        if (count > 0)
            readings.push_back({{"name", q.name},
                                {"unit", q.unit},
                                {"mean", sum / static_cast<double>(count)},
                                {"max", max}});
    }
    return readings;
}

} // namespace

ReportAnswer reportAnswer(const RunSet &runs, const RunGroups &groups) {
    if (groups.groups.empty() || groups.baseline < 0)
        return {"How fast does training run here?", "No run was compared: no answer."};
    const RunGroup &base = groups.groups[static_cast<std::size_t>(groups.baseline)];
    const std::string model = trainedName(runs.run(base.runs.front()).record);
    const int other = fastestOther(groups);
    if (other < 0) {
        const GroupStats &s = base.stats;
        return {"How fast does " + model + " train on " + base.label + "?",
                base.label + " trains " + model + " in " + fixedText(s.mean, 3) + " s per epoch" +
                    intervalText(s.ciLow, s.ciHigh, 3) +
                    " (stable mean, n = " + std::to_string(s.n) + ")."};
    }
    const RunGroup &fast = groups.groups[static_cast<std::size_t>(other)];
    const SpeedUp &up = fast.speedUp;
    std::string sentence = fast.label + " trains " + model + " " + fixedText(up.ratio, 2) + "x" +
                           intervalText(up.low, up.high, 2) +
                           (up.ratio >= 1.0 ? " faster than " : " the speed of ") + base.label;
    if (!fast.differences.empty()) {
        sentence += " (not comparable: ";
        for (std::size_t i = 0; i < fast.differences.size(); ++i)
            sentence += (i > 0 ? ", " : "") + fast.differences[i];
        sentence += ")";
    }
    return {"How much faster does " + model + " train on " + fast.label + " than on " + base.label +
                "?",
            sentence + "."};
}

OrderedJson reportData(const RunSet &runs, const ComparisonParts &parts,
                       const std::string &generatedUtc) {
    const RunGroups none;
    const ReportAnswer answer = reportAnswer(runs, parts.groups != nullptr ? *parts.groups : none);
    const std::size_t count = std::max<std::size_t>(1, static_cast<std::size_t>(runs.runCount()));
    const std::size_t points =
        std::clamp(kReportPointBudget / count, kReportMinPointsPerRun, kReportPointsPerRun);
    OrderedJson curves = OrderedJson::array(), system = OrderedJson::array(),
                settings = OrderedJson::array();
    for (const RunEntry &run : runs.runs()) {
        curves.push_back(
            {{"number", run.number},
             {"steps", stepCurve(run.record, points)},
             {"test", testCurve(run.record)},
             {"accuracy", accuracyCurve(run.record)},
             {"target", run.target.set ? number(run.target.target) : nullptr},
             {"reachedAt",
              run.target.reached ? number(rounded(run.target.seconds, 1e3)) : nullptr}});
        system.push_back({{"number", run.number},
                          {"samples", run.record.samples.size()},
                          {"readings", systemReadings(run.record)}});
        const OrderedJson record = recordHeadJson(run.record);
        settings.push_back({{"number", run.number},
                            {"fingerprint", record["fingerprint"]},
                            {"data", record["data"]}});
    }
    OrderedJson data;
    data["comparison"] =
        comparisonDocument(runs, parts, 0, OrderedJson::array(), OrderedJson::array());
    data["answer"] = {{"question", answer.question}, {"sentence", answer.sentence}};
    data["curves"] = std::move(curves);
    data["system"] = std::move(system);
    data["runs"] = std::move(settings);
    data["testLossWarning"] = kTestLossWarning;
    data["generated"] = generatedUtc;
    data["version"] = kVersion;
    return data;
}

} // namespace devicebench
