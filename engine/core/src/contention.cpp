// SPDX-License-Identifier: MIT
#include "devicebench/contention.h"

#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <utility>

namespace devicebench {
namespace {

// A /proc file, whole (they report a size of 0, so read until the end); "" when unreadable.
std::string readSmallFile(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f %%", 100.0 * fraction);
    return text;
}

// The CPUs a run of `threads` threads can use of `cpus` allowed ones: at least 1, at most
// `cpus`; `threads` itself when the allowed CPUs are unknown (`cpus` 0).
int cpusUsed(int threads, int cpus) {
    return cpus > 0 ? std::min(std::max(threads, 1), cpus) : threads;
}

// "1 CPU", "2 CPUs".
std::string cpusText(int cpus) { return std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs"); }

} // namespace

bool judgeContention(const EpochLoad &load, double wallSeconds, int threads, bool cpuDevice) {
    if (!load.measured || !(wallSeconds >= kMinJudgedSeconds))
        return false;
    if (load.stealFraction >= kContendedSteal) // rule (1); false when NaN
        return true;
    if (load.cpus < 1 || std::isnan(load.otherCpus))
        return false;
    if (!cpuDevice) // rule (2'): less than one CPU left for the host thread
        return load.otherCpus >= load.cpus - 1 + kContendedOtherCpus;
    const int spare = load.cpus - cpusUsed(threads, load.cpus);
    return load.cpuShare < kContendedShare && load.otherCpus >= spare + kContendedOtherCpus;
}

std::string describeLoad(const EpochLoad &load, int threads) {
    if (!load.measured)
        return {};
    std::vector<std::string> parts;
    if (std::isfinite(load.cpuShare))
        parts.push_back("got " + percent(load.cpuShare) + " of " +
                        cpusText(cpusUsed(threads, load.cpus)));
    if (std::isfinite(load.otherCpus) && load.cpus > 0) {
        char others[32];
        std::snprintf(others, sizeof others, "%.1f", load.otherCpus);
        parts.push_back("others used " + std::string(others) + " of its " + cpusText(load.cpus));
    }
    if (std::isfinite(load.stealFraction))
        parts.push_back("steal " + percent(load.stealFraction));
    std::string text;
    for (const std::string &part : parts)
        text += (text.empty() ? "" : "; ") + part;
    return text;
}

std::vector<int> contendedStableEpochs(const std::vector<EpochResult> &epochs, int warmupEpochs) {
    std::vector<int> flagged;
    for (const EpochResult &e : epochs) {
        if (e.epoch > warmupEpochs && e.load.measured && e.load.contended)
            flagged.push_back(e.epoch);
    }
    return flagged;
}

std::string contentionWarning(const std::vector<EpochResult> &epochs, int warmupEpochs) {
    const std::vector<int> flagged = contendedStableEpochs(epochs, warmupEpochs);
    if (flagged.empty())
        return {};
    const auto stable = std::count_if(epochs.begin(), epochs.end(),
                                      [&](const EpochResult &e) { return e.epoch > warmupEpochs; });
    std::string list;
    for (int epoch : flagged)
        list += (list.empty() ? "" : ", ") + std::to_string(epoch);
    return std::to_string(flagged.size()) + " of " + std::to_string(stable) +
           (stable == 1 ? " stable epoch (" : " stable epochs (") + list +
           ") ran on a busy machine (contended): the stable mean includes time other work took; "
           "rerun on an idle machine before comparing";
}

CpuTimes parseProcStat(const std::string &text, const std::vector<int> &cpus,
                       double ticksPerSecond) {
    CpuTimes times;
    if (!(ticksPerSecond > 0.0))
        return times;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        // "cpuN user nice system idle iowait irq softirq steal guest guest_nice"; the first
        // line, "cpu ...", is the machine's sum and is skipped.
        if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9')
            continue;
        std::istringstream fields(line.substr(3));
        int cpu = -1;
        double v[8] = {};
        if (!(fields >> cpu))
            continue;
        int read = 0;
        while (read < 8 && fields >> v[read])
            ++read;
        if (read < 4) // user nice system idle at least (older kernels stop after idle)
            continue;
        if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), cpu) == cpus.end())
            continue;
        times.valid = true;
        times.busy += (v[0] + v[1] + v[2] + v[5] + v[6]) / ticksPerSecond;
        times.idle += v[3] / ticksPerSecond;
        times.iowait += v[4] / ticksPerSecond;
        times.steal += v[7] / ticksPerSecond;
    }
    return times;
}

double parseLoadAverage(const std::string &text) {
    std::istringstream in(text);
    double value = 0.0;
    if (!(in >> value) || !std::isfinite(value) || value < 0.0)
        return std::numeric_limits<double>::quiet_NaN();
    return value;
}

std::vector<int> allowedCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return cpus;
    for (std::size_t cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(static_cast<int>(cpu));
    }
    return cpus;
}

double processCpuSeconds() {
    timespec ts{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

EpochLoadMeter::EpochLoadMeter(std::string procRoot, std::function<double()> cpuSeconds)
    : m_procRoot(std::move(procRoot)),
      m_cpuSeconds(cpuSeconds ? std::move(cpuSeconds) : std::function<double()>(processCpuSeconds)),
      m_cpus(allowedCpus()), m_ticksPerSecond(static_cast<double>(sysconf(_SC_CLK_TCK))) {}

void EpochLoadMeter::begin() {
    m_times0 = parseProcStat(readSmallFile(m_procRoot + "/stat"), m_cpus, m_ticksPerSecond);
    m_cpu0 = m_cpuSeconds();
    m_wall0 = std::chrono::steady_clock::now();
}

EpochLoad EpochLoadMeter::end(int threads, bool cpuDevice) {
    const auto wall1 = std::chrono::steady_clock::now();
    const double cpu1 = m_cpuSeconds();
    const CpuTimes times1 =
        parseProcStat(readSmallFile(m_procRoot + "/stat"), m_cpus, m_ticksPerSecond);
    const double wall = std::chrono::duration<double>(wall1 - m_wall0).count();
    EpochLoad load;
    load.measured = std::isfinite(cpu1) && std::isfinite(m_cpu0) && wall > 0.0;
    if (!load.measured)
        return load;
    load.cpus = static_cast<int>(m_cpus.size());
    load.cpuSeconds = std::max(0.0, cpu1 - m_cpu0);
    const int used = cpusUsed(threads, load.cpus);
    if (used > 0)
        load.cpuShare = load.cpuSeconds / (wall * used);
    if (m_times0.valid && times1.valid) {
        const double total = times1.total() - m_times0.total();
        const double busy = times1.busy - m_times0.busy;
        if (total > 0.0) {
            load.stealFraction = std::clamp((times1.steal - m_times0.steal) / total, 0.0, 1.0);
            load.iowaitFraction = std::clamp((times1.iowait - m_times0.iowait) / total, 0.0, 1.0);
        }
        load.otherCpus = std::max(0.0, (busy - load.cpuSeconds) / wall);
    }
    load.loadAverage = parseLoadAverage(readSmallFile(m_procRoot + "/loadavg"));
    load.contended = judgeContention(load, wall, threads, cpuDevice);
    return load;
}

} // namespace devicebench
