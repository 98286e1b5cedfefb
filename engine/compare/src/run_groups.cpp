// SPDX-License-Identifier: MIT
#include "devicebench/run_groups.h"

#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace devicebench {

namespace {

// The time a group is ranked by: its target score when its runs have a target (+infinity when
// not reached reliably), else the mean of its runs' stable means (NaN without one).
double groupSeconds(const RunGroup &group) {
    if (group.target.runs > 0)
        return std::isinf(group.target.seconds) ? kGroupNaN : group.target.seconds;
    return group.stats.n > 0 ? group.stats.mean : kGroupNaN;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// comparison.h's rule, without naming the fields: no compared row differs. Equal fields (and
// data identities that are equal by one hashing method) make it an equivalence on the runs that
// are comparable with themselves, so a run can be matched against one run of each group.
bool comparable(const RunRecord &a, const RunRecord &b) {
    for (const ComparisonRule &rule : comparisonRules()) {
        if (rule.differs != nullptr && rule.differs(a, b))
            return false;
    }
    return true;
}

const std::string &recordDevice(const RunRecord &record) {
    return record.started.device.empty() ? record.config.device : record.started.device;
}

int recordThreads(const RunRecord &record) {
    return record.started.device.empty() ? record.config.threads : record.started.threads;
}

// The runs of `runs` in classes of sameClass(first run of the class, run) among runs of one
// key (keyOf), each class's set indices ascending, classes in the order of their first runs.
template <class KeyOf> std::vector<std::vector<int>> partition(const RunSet &runs, KeyOf keyOf) {
    std::vector<std::vector<int>> classes;
    std::unordered_map<std::string, std::vector<std::size_t>> byKey; // key -> classes
    for (int i = 0; i < runs.runCount(); ++i) {
        const RunRecord &record = runs.run(i).record;
        std::vector<std::size_t> &candidates = byKey[keyOf(record)];
        const auto match = std::find_if(candidates.begin(), candidates.end(), [&](std::size_t c) {
            return comparable(runs.run(classes[c].front()).record, record);
        });
        if (match != candidates.end()) {
            classes[*match].push_back(i);
        } else {
            candidates.push_back(classes.size());
            classes.push_back({i});
        }
    }
    return classes;
}

// The largest test-loss difference between any two of `members` (set indices) and one pair it
// comes from: for each epoch number, the lowest and highest test loss and whether a run's loss
// is not finite (then the difference is +infinity, as maxTestLossDifference says); a loss not
// reported (hasTestLoss) takes no part.
struct Largest {
    double difference = kNaN; // NaN: no two runs have an epoch in common
    int a = -1;
    int b = -1;
};
Largest largestDifference(const RunSet &runs, const std::vector<int> &members) {
    struct Extremes {
        int runs = 0, lastRun = -1, firstRun = -1, secondRun = -1, nonFiniteRun = -1;
        double low = 0.0, high = 0.0;
        int lowRun = -1, highRun = -1;
    };
    std::map<int, Extremes> byEpoch;
    for (const int index : members) {
        const RunRecord &record = runs.run(index).record;
        for (const EpochResult &e : record.epochs) {
            if (!hasTestLoss(record, e))
                continue; // not reported: nothing to compare in this epoch
            Extremes &x = byEpoch[e.epoch];
            if (x.lastRun != index) { // count each run once per epoch number
                x.runs += 1;
                x.lastRun = index;
                (x.firstRun < 0 ? x.firstRun : x.secondRun < 0 ? x.secondRun : x.lastRun) = index;
            }
            if (!std::isfinite(e.testLoss)) {
                if (x.nonFiniteRun < 0)
                    x.nonFiniteRun = index;
                continue;
            }
            if (x.lowRun < 0 || e.testLoss < x.low) {
                x.low = e.testLoss;
                x.lowRun = index;
            }
            if (x.highRun < 0 || e.testLoss > x.high) {
                x.high = e.testLoss;
                x.highRun = index;
            }
        }
    }
    Largest largest;
    for (const auto &[epoch, x] : byEpoch) {
        if (x.runs < 2)
            continue;
        Largest here;
        if (x.nonFiniteRun >= 0) {
            here = {std::numeric_limits<double>::infinity(), x.nonFiniteRun,
                    x.firstRun != x.nonFiniteRun ? x.firstRun : x.secondRun};
        } else {
            // Equal losses: the lowest and highest are one run; the pair is two runs.
            const int other = x.firstRun != x.lowRun ? x.firstRun : x.secondRun;
            here = {x.high - x.low, x.lowRun, x.highRun != x.lowRun ? x.highRun : other};
        }
        if (std::isnan(largest.difference) || here.difference > largest.difference)
            largest = here;
    }
    if (largest.a > largest.b)
        std::swap(largest.a, largest.b);
    return largest;
}

// The degrees of freedom of sqrt(a^2 + b^2) (Welch-Satterthwaite); a term whose standard error
// is 0 adds nothing.
double combinedDegreesOfFreedom(double seA, double dfA, double seB, double dfB) {
    const double va = seA * seA;
    const double vb = seB * seB;
    const double denominator = (va > 0.0 ? va * va / dfA : 0.0) + (vb > 0.0 ? vb * vb / dfB : 0.0);
    return denominator > 0.0 ? (va + vb) * (va + vb) / denominator : kNaN;
}

// exp(centre -+ t(0.975, floor(df)) * se): the back-transformed interval; the point when se is 0.
std::pair<double, double> logInterval(double centre, double se, double df) {
    if (!(se > 0.0))
        return {std::exp(centre), std::exp(centre)};
    // Rounded down, but not below a whole number that rounding errors miss by a hair (4 - 1e-15).
    const double t = studentT975(std::max(1, static_cast<int>(std::floor(df + 1e-9))));
    return {std::exp(centre - t * se), std::exp(centre + t * se)};
}

} // namespace

bool countsInGroupStats(const Summary &run) {
    return run.hasStable && run.stableMean > 0.0 && std::isfinite(run.logMean);
}

GroupStats groupStats(const std::vector<const Summary *> &runs) {
    std::vector<const Summary *> counted;
    for (const Summary *s : runs) {
        if (countsInGroupStats(*s))
            counted.push_back(s);
    }
    GroupStats g;
    g.n = static_cast<int>(counted.size());
    if (g.n == 0)
        return g;
    const double n = g.n;
    double sum = 0.0, logSum = 0.0;
    g.min = g.max = counted.front()->stableMean;
    for (const Summary *s : counted) {
        sum += s->stableMean;
        logSum += s->logMean;
        g.min = std::min(g.min, s->stableMean);
        g.max = std::max(g.max, s->stableMean);
    }
    g.mean = sum / n;
    g.logMean = logSum / n;
    // Within each run: the variance of its log mean from its epochs, s_i^2 / m_i, and its
    // degrees of freedom m_i - 1 (runs with 2 or more stable epochs).
    double within = 0.0, withinSquares = 0.0;
    int withinRuns = 0;
    for (const Summary *s : counted) {
        const double v = s->logStddev * s->logStddev / s->stableCount;
        if (s->stableCount < 2 || !std::isfinite(v))
            continue;
        within += v;
        withinSquares += v * v / (s->stableCount - 1);
        withinRuns += 1;
    }
    const double withinDf = withinSquares > 0.0 ? within * within / withinSquares : kNaN;
    if (g.n == 1) {
        const Summary &only = *counted.front();
        if (withinRuns == 1) {
            g.logSe = std::sqrt(within);
            g.degreesOfFreedom = only.stableCount - 1;
            g.ciLow = only.ciLow;
            g.ciHigh = only.ciHigh;
        }
        return g;
    }
    // Between the runs: the sample variance of their log means (it holds each run's epoch noise
    // too), floored by the mean within-run variance, which the runs' spread cannot be below.
    double squares = 0.0, logSquares = 0.0;
    for (const Summary *s : counted) {
        squares += (s->stableMean - g.mean) * (s->stableMean - g.mean);
        logSquares += (s->logMean - g.logMean) * (s->logMean - g.logMean);
    }
    g.stddev = std::sqrt(squares / (n - 1.0));
    const double between = logSquares / (n - 1.0);
    const double meanWithin = withinRuns > 0 ? within / withinRuns : kNaN;
    if (withinRuns > 0 && meanWithin > between) {
        g.logSe = std::sqrt(meanWithin / n);
        g.degreesOfFreedom = std::isnan(withinDf) ? n - 1.0 : withinDf;
    } else {
        g.logSe = std::sqrt(between / n);
        g.degreesOfFreedom = n - 1.0;
    }
    std::tie(g.ciLow, g.ciHigh) = logInterval(g.logMean, g.logSe, g.degreesOfFreedom);
    return g;
}

SpeedUp groupSpeedUp(const GroupStats &baseline, const GroupStats &group) {
    SpeedUp s{kNaN, kNaN, kNaN};
    if (baseline.n == 0 || group.n == 0 || !(group.mean > 0.0))
        return s;
    s.ratio = baseline.mean / group.mean;
    if (!std::isfinite(baseline.logSe) || !std::isfinite(group.logSe))
        return s;
    const double se = std::hypot(baseline.logSe, group.logSe);
    const double df = combinedDegreesOfFreedom(baseline.logSe, baseline.degreesOfFreedom,
                                               group.logSe, group.degreesOfFreedom);
    std::tie(s.low, s.high) = logInterval(baseline.logMean - group.logMean, se, df);
    return s;
}

std::string machineKey(const RunRecord &record) {
    return runLabel(record) + "\n" + recordDevice(record) + "\n" +
           std::to_string(recordThreads(record)) + "\n" + record.fingerprint.cpuModel;
}

bool sameGroup(const RunRecord &a, const RunRecord &b) {
    return comparable(a, b) && machineKey(a) == machineKey(b);
}

RunGroups groupRuns(const RunSet &runs) {
    RunGroups result;
    result.groupOfRun.assign(static_cast<std::size_t>(runs.runCount()), -1);
    for (std::vector<int> &members : partition(runs, machineKey)) {
        RunGroup group;
        group.number = static_cast<int>(result.groups.size()) + 1;
        const RunRecord &first = runs.run(members.front()).record;
        group.label = runLabel(first);
        group.comparable = comparable(first, first);
        std::vector<const Summary *> summaries;
        std::vector<TargetResult> targets;
        for (const int index : members) {
            summaries.push_back(&runs.run(index).summary);
            targets.push_back(runs.run(index).target);
            result.groupOfRun[static_cast<std::size_t>(index)] = group.number - 1;
        }
        group.stats = groupStats(summaries);
        group.target = scoreTimeToTarget(targets);
        group.maxTestLossDiff = largestDifference(runs, members).difference;
        group.runs = std::move(members);
        result.groups.push_back(std::move(group));
    }
    if (result.groups.empty())
        return result;
    // The baseline: the group of the chosen run, else the slowest group, else the first.
    const int chosen = runs.baselineSetting() != 0 ? runs.indexOf(runs.baselineSetting()) : -1;
    result.baseline = chosen >= 0 ? result.groupOfRun[static_cast<std::size_t>(chosen)] : -1;
    if (result.baseline < 0) {
        double slowest = -1.0;
        for (std::size_t i = 0; i < result.groups.size(); ++i) {
            const double seconds = groupSeconds(result.groups[i]);
            if (std::isfinite(seconds) && seconds > slowest) {
                slowest = seconds;
                result.baseline = static_cast<int>(i);
            }
        }
    }
    if (result.baseline < 0)
        result.baseline = 0;
    const RunGroup &base = result.groups[static_cast<std::size_t>(result.baseline)];
    const RunRecord &baseRecord = runs.run(base.runs.front()).record;
    for (RunGroup &group : result.groups) {
        const RunRecord &record = runs.run(group.runs.front()).record;
        group.isBaseline = &group == &base;
        group.speedUp =
            comparedByTimeToTarget(baseRecord, record)
                ? SpeedUp{groupSeconds(base) / groupSeconds(group), kGroupNaN, kGroupNaN}
                : groupSpeedUp(base.stats, group.stats);
        group.differences = comparisonDifferences(baseRecord, record);
    }
    return result;
}

std::string runNumbersText(const RunSet &runs, const std::vector<int> &indices) {
    std::string text;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i; // the range's last index in `indices`
        while (j + 1 < indices.size() &&
               runs.run(indices[j + 1]).number == runs.run(indices[j]).number + 1)
            ++j;
        text += (text.empty() ? "#" : ", #") + std::to_string(runs.run(indices[i]).number);
        if (j > i)
            text += "-#" + std::to_string(runs.run(indices[j]).number);
        i = j + 1;
    }
    return text;
}

ControlSummary summarizeControl(const RunSet &runs) {
    ControlSummary summary;
    Largest largest;
    const auto noKey = [](const RunRecord &) { return std::string(); };
    for (const std::vector<int> &members : partition(runs, noKey)) {
        const RunRecord &first = runs.run(members.front()).record;
        if (members.size() < 2 || !comparable(first, first))
            continue;
        const auto k = static_cast<long long>(members.size());
        summary.comparablePairs += k * (k - 1) / 2;
        const Largest here = largestDifference(runs, members);
        if (!std::isnan(here.difference) &&
            (std::isnan(largest.difference) || here.difference > largest.difference))
            largest = here;
        if (!(here.difference > kTestLossWarning))
            continue; // no pair of this class is above the threshold
        for (std::size_t a = 0; a < members.size(); ++a) {
            for (std::size_t b = a + 1; b < members.size(); ++b) {
                const double d =
                    maxTestLossDifference(runs.run(members[a]).record, runs.run(members[b]).record);
                if (d > kTestLossWarning)
                    summary.warnings.push_back({members[a], members[b], d, true});
            }
        }
    }
    std::sort(summary.warnings.begin(), summary.warnings.end(),
              [](const ControlPair &x, const ControlPair &y) {
                  return x.indexA != y.indexA ? x.indexA < y.indexA : x.indexB < y.indexB;
              });
    if (largest.a >= 0) {
        const double d =
            maxTestLossDifference(runs.run(largest.a).record, runs.run(largest.b).record);
        summary.largest = {largest.a, largest.b, d, d > kTestLossWarning};
    }
    return summary;
}

} // namespace devicebench
