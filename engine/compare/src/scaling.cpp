// SPDX-License-Identifier: MIT
#include "devicebench/scaling.h"

#include "devicebench/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace devicebench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool onCpu(const RunRecord &r) {
    const std::string &device = r.started.device.empty() ? r.config.device : r.started.device;
    return device == "cpu";
}

// The back end a run's device uses: the job's, or for a single-process run Gloo on a CPU and
// NCCL on a CUDA device.
std::string backendOf(const RunRecord &r) {
    if (r.started.distributed.isJob())
        return r.started.distributed.backend;
    const std::string &device = r.started.device.empty() ? r.config.device : r.started.device;
    if (device == "cpu")
        return "gloo";
    return device.rfind("cuda", 0) == 0 ? "nccl" : "";
}

double allReduceShare(const RunEntry &run) {
    double reduce = 0.0;
    double seconds = 0.0;
    int stable = 0;
    for (const EpochResult &e : run.record.epochs) {
        if (run.isWarmup(e.epoch))
            continue;
        if (!std::isfinite(e.allReduceSeconds))
            return kNaN;
        reduce += e.allReduceSeconds;
        seconds += e.seconds;
        ++stable;
    }
    return stable > 0 && seconds > 0.0 ? reduce / seconds : kNaN;
}

// A run's place in a series: who it is and what is compared.
struct Member {
    int index = 0;
    int worldSize = 1;
    bool job = false;
};

struct Group {
    ScalingSeries series;
    int first = 0; // the series' first run: the one the others are compared with
    std::vector<Member> members;
};

// Whether `candidate` replaces `shown` as its world size's point.
bool preferred(const RunSet &runs, const Member &candidate, const Member &shown) {
    if (candidate.job != shown.job)
        return candidate.job;
    return runs.run(candidate.index).record.createdUtc >= runs.run(shown.index).record.createdUtc;
}

std::string seriesName(const ScalingSeries &s, const RunRecord &r, bool weak) {
    std::string name = s.deviceKind;
    if (s.threadsPerRank > 0)
        name += " (" + std::to_string(s.threadsPerRank) +
                (s.threadsPerRank == 1 ? " thread)" : " threads)");
    if (!s.backend.empty())
        name += ", " + backendLabel(s.backend);
    name += weak ? " \u00b7 " + std::to_string(r.started.distributed.perRankBatchSize) +
                       " per rank (weak scaling)"
                 : " \u00b7 batch " + std::to_string(r.config.batchSize);
    name += modelLabel(r);
    if (!r.workload.empty() && r.workload != toString(Workload::Faithful))
        name += " (" + r.workload + ")";
    if (r.config.phases)
        name += " (phase-timed)";
    if (r.data.variant == "synthetic")
        name += " [synthetic]";
    return name;
}

ScalingSeries finish(const RunSet &runs, Group &group) {
    ScalingSeries series = group.series;
    std::map<int, std::pair<Member, int>> bySize; // world size -> shown member, others
    for (const Member &m : group.members) {
        auto found = bySize.find(m.worldSize);
        if (found == bySize.end()) {
            bySize.emplace(m.worldSize, std::make_pair(m, 0));
            continue;
        }
        ++found->second.second;
        if (preferred(runs, m, found->second.first))
            found->second.first = m;
    }
    for (const auto &[size, shown] : bySize) {
        const RunEntry &run = runs.run(shown.first.index);
        ScalingPoint p;
        p.worldSize = size;
        p.imagesPerSecond = run.summary.imagesPerSecond;
        p.allReduceShare = allReduceShare(run);
        p.runIndex = shown.first.index;
        p.jobRecord = shown.first.job;
        p.otherRuns = shown.second;
        series.points.push_back(p);
    }
    const int single = series.singleRankIndex();
    const double base =
        single >= 0 ? series.points[static_cast<std::size_t>(single)].imagesPerSecond : kNaN;
    for (ScalingPoint &p : series.points) {
        p.idealImagesPerSecond = base * p.worldSize;
        p.efficiency = p.imagesPerSecond / p.idealImagesPerSecond;
    }
    return series;
}

// A run's place: its member, the key every member of a series shares, the scaling kind ('w'
// weak: the per-rank batch is kept; 's' strong: the global batch is kept; '1': one rank, which
// belongs to both kinds) and its record with the batch size a series compares (a weak job's
// per-rank batch; else the global batch).
struct Candidate {
    Member member;
    ScalingSeries key;
    char kind = '1';
    RunRecord compared;
};

// Run `i`'s place, unless it is a rank record or has no stable mean.
std::optional<Candidate> candidateOf(const RunSet &runs, int i) {
    const RunEntry &run = runs.run(i);
    const RunRecord &r = run.record;
    const DistributedInfo &d = r.started.distributed;
    const bool job = d.isJob();
    if ((!job && d.worldSize != 0) || !run.summary.hasStable ||
        !std::isfinite(run.summary.imagesPerSecond) || !(run.summary.imagesPerSecond > 0.0))
        return std::nullopt;
    Candidate c;
    c.key.deviceKind = deviceKind(r);
    const bool cpu = onCpu(r);
    c.key.cpuModel = cpu ? r.fingerprint.cpuModel : std::string();
    c.key.threadsPerRank = cpu ? r.started.threads : 0;
    c.key.backend = backendOf(r);
    c.member = Member{i, job ? d.worldSize : 1, job};
    c.kind = c.member.worldSize == 1 ? '1' : (d.weakScaling ? 'w' : 's');
    c.compared = r;
    c.compared.steps.clear();
    if (c.kind == 'w')
        c.compared.config.batchSize = static_cast<int>(d.perRankBatchSize);
    return c;
}

bool sameSeries(const Candidate &a, const Candidate &b) {
    return a.key.deviceKind == b.key.deviceKind && a.key.cpuModel == b.key.cpuModel &&
           a.key.threadsPerRank == b.key.threadsPerRank && a.key.backend == b.key.backend &&
           workloadDifferences(a.compared, b.compared).empty();
}

// Jobs of several ranks make the series (one kind each); then every 1-rank run joins each
// series it matches, or, matching none, a series of 1-rank runs.
std::vector<Group> groupCandidates(const RunSet &runs, const std::vector<Candidate> &candidates) {
    std::vector<Group> groups;
    std::vector<const Candidate *> firsts;
    std::vector<char> kinds;
    for (int pass = 0; pass < 2; ++pass) {
        for (const Candidate &c : candidates) {
            if ((pass == 0) == (c.kind == '1'))
                continue;
            bool joined = false;
            for (std::size_t g = 0; g < groups.size(); ++g) {
                const bool kindFits = kinds[g] == c.kind || c.kind == '1';
                if (kindFits && sameSeries(*firsts[g], c)) {
                    groups[g].members.push_back(c.member);
                    joined = true;
                    if (c.kind != '1')
                        break; // a job of several ranks is in one series
                }
            }
            if (!joined) {
                ScalingSeries key = c.key;
                key.name = seriesName(key, runs.run(c.member.index).record, c.kind == 'w');
                groups.push_back(Group{key, c.member.index, {c.member}});
                firsts.push_back(&c);
                kinds.push_back(c.kind);
            }
        }
    }
    return groups;
}

// Two series of one name (the same kind of device and workload on two CPU models, or two runs
// of otherwise equal settings that differ in a field the name leaves out): each says which it
// is.
void nameApart(const RunSet &runs, std::vector<ScalingSeries> &series) {
    std::map<std::string, int> names;
    for (const ScalingSeries &s : series)
        ++names[s.name];
    for (ScalingSeries &s : series) {
        if (names[s.name] < 2)
            continue;
        const RunRecord &r = runs.run(s.points.front().runIndex).record;
        const std::string which = !s.cpuModel.empty() ? s.cpuModel : r.fingerprint.hostName;
        if (!which.empty())
            s.name += " \u00b7 " + which;
    }
}

} // namespace

int ScalingSeries::singleRankIndex() const {
    for (std::size_t i = 0; i < points.size(); ++i)
        if (points[i].worldSize == 1)
            return static_cast<int>(i);
    return -1;
}

std::vector<ScalingSeries> scalingSeries(const RunSet &runs) {
    std::vector<Candidate> candidates;
    for (int i = 0; i < runs.runCount(); ++i) {
        if (std::optional<Candidate> c = candidateOf(runs, i))
            candidates.push_back(std::move(*c));
    }
    std::vector<ScalingSeries> series;
    for (Group &group : groupCandidates(runs, candidates)) {
        const bool anyJob = std::any_of(group.members.begin(), group.members.end(),
                                        [](const Member &m) { return m.job; });
        if (anyJob)
            series.push_back(finish(runs, group));
    }
    nameApart(runs, series);
    return series;
}

} // namespace devicebench
