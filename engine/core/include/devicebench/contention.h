// SPDX-License-Identifier: MIT
// Was an epoch measured on a busy machine? Per epoch: what the run got (process CPU time
// against wall time x threads), what others did on its CPUs and what the hypervisor took
// (/proc/stat), judged by one rule. The rule, its thresholds and the measurements behind them:
// docs/MEASURING.md, "A busy machine". Plain C++ (Linux /proc, POSIX clocks).
#pragma once

#include "devicebench/run_types.h"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace devicebench {

// The rule's thresholds: contended when steal >= kContendedSteal (any device); or, on the CPU,
// cpuShare < kContendedShare and otherCpus >= spare CPUs + kContendedOtherCpus (both: a low
// share alone may be the run's own waiting); or, on CUDA, otherCpus >= cpus - 1 +
// kContendedOtherCpus (the host thread's share says nothing there). Fractions, CPUs, seconds.
inline constexpr double kContendedSteal = 0.10;
inline constexpr double kContendedShare = 0.85;
inline constexpr double kContendedOtherCpus = 0.15;
inline constexpr double kMinJudgedSeconds = 0.05; // shorter epochs: /proc/stat's 10 ms ticks

// Whether the epoch of `wallSeconds` is contended; `threads`: intra-op threads, `cpuDevice`:
// device "cpu". False when not measured, a needed number is NaN or the epoch is too short.
bool judgeContention(const EpochLoad &load, double wallSeconds, int threads, bool cpuDevice);

// One line for people: "got 48 % of 1 CPU; others used 1.0 of its 1 CPU; steal 0 %"
// (NaN parts left out); "" when not measured.
std::string describeLoad(const EpochLoad &load, int threads);

// The epoch numbers (from 1) of the stable epochs (epoch > warmupEpochs) flagged contended, in
// order. Epochs not measured count as not contended.
std::vector<int> contendedStableEpochs(const std::vector<EpochResult> &epochs, int warmupEpochs);

// The warning a summary or a comparison prints for a run with contended stable epochs, e.g.
// "2 of 8 stable epochs (4, 7) ran on a busy machine (contended): the stable mean includes time
// other work took; rerun on an idle machine before comparing"; "" when none.
std::string contentionWarning(const std::vector<EpochResult> &epochs, int warmupEpochs);

// Time of a set of CPUs from /proc/stat, in seconds (ticks / sysconf(_SC_CLK_TCK)).
struct CpuTimes {
    bool valid = false; // false: /proc/stat was unreadable, or none of the CPUs was listed
    double busy = 0.0;  // user + nice + system + irq + softirq (guest time is inside user)
    double idle = 0.0;
    double iowait = 0.0;
    double steal = 0.0;
    double total() const { return busy + idle + iowait + steal; }
};

// Sums the "cpuN ..." lines of /proc/stat text `text` for the CPUs in `cpus` (empty: every
// listed CPU), with `ticksPerSecond` ticks a second. Lines that are missing or malformed are
// skipped; valid is false when no CPU of `cpus` was found.
CpuTimes parseProcStat(const std::string &text, const std::vector<int> &cpus,
                       double ticksPerSecond);

// The first number of /proc/loadavg text (the 1-minute load average); NaN when malformed.
double parseLoadAverage(const std::string &text);

// The CPUs this process may run on (sched_getaffinity), in order; empty when unknown.
std::vector<int> allowedCpus();

// CPU seconds this process has used so far (CLOCK_PROCESS_CPUTIME_ID: every thread, user and
// system).
double processCpuSeconds();

// Measures one epoch: begin() before the epoch's clock starts, end() after it stops (well under
// a millisecond each). Not thread-safe; one per run.
class EpochLoadMeter {
public:
    // `procRoot`: where stat and loadavg are read ("/proc"; tests give a folder of their own).
    // `cpuSeconds`: whose CPU time is the run's (null: this process's, processCpuSeconds; a
    // child run's: its process tree's).
    explicit EpochLoadMeter(std::string procRoot = "/proc",
                            std::function<double()> cpuSeconds = nullptr);
    void begin();
    // The epoch's load since begin(), judged with `threads` and `cpuDevice` (judgeContention).
    EpochLoad end(int threads, bool cpuDevice);

private:
    std::string m_procRoot;
    std::function<double()> m_cpuSeconds;
    std::vector<int> m_cpus;
    double m_ticksPerSecond;
    std::chrono::steady_clock::time_point m_wall0;
    double m_cpu0 = 0.0;
    CpuTimes m_times0;
};

} // namespace devicebench
