// SPDX-License-Identifier: MIT
// Was an epoch measured on a busy machine? (issue 15, "Measurement validity: a busy machine";
// docs/MEASURING.md, "A busy machine".) On a 2-core machine an epoch trained on both cores takes
// many times longer while anything else runs; this measures, for every epoch, what the run got
// (its process CPU time against wall time x threads), what the rest of the machine did on the
// run's CPUs and what the hypervisor took (/proc/stat), and flags the epoch "contended" by one
// rule with its thresholds here. Plain C++ (Linux /proc, POSIX clocks): no LibTorch, no Qt.
#pragma once

#include "devicebench/run_types.h"

#include <chrono>
#include <string>
#include <vector>

namespace devicebench {

// ---- the rule --------------------------------------------------------------------------------
// An epoch is contended when either
//  (1) steal: stealFraction >= kContendedSteal, i.e. the hypervisor ran other guests for at
//      least a tenth of the time of the run's CPUs (any device: the host thread and the CPU
//      training alike lose that time); or
//  (2) a CPU run (device "cpu") that did not get its CPUs while others used them:
//      cpuShare < kContendedShare AND otherCpus >= spare + kContendedOtherCpus, where
//      spare = cpus - min(threads, cpus) is the CPUs the run did not ask for. A run that has
//      its CPUs has a share of about 1 (0.94-0.97 measured with 1 and 2 threads on a 2-core
//      machine, the run given real-time priority so that nothing else could take its CPUs;
//      docs/MEASURING.md, "A busy machine"); fair sharing with one other busy process gives
//      about 2/3 for 2 threads on 2 CPUs, and 1/2 for 1 thread pinned to the busy CPU.
//      Both conditions are needed: a low share alone may be the run's own waiting, and others'
//      work alone may have used only CPUs the run left free, or yielded to it (nice). Alone,
//      others' work on the run's CPUs measured 0.02-0.11 CPU (interrupts, this machine's
//      daemons): the margin 0.15 sits above it. A real-time busy loop sharing the run's CPU
//      that took a fifth of it (share 0.79-0.81, others 0.18-0.20) made epochs 25 % slower:
//      flagged by these thresholds, missed by 0.80 / 0.25.
//  On a CUDA device the host thread mostly waits for the GPU, so the share says nothing there:
//  it is recorded but not judged; (1) applies, and (2') others left less than one CPU of the
//  run's CPUs for the host thread: otherCpus >= cpus - 1 + kContendedOtherCpus.
// Epochs shorter than kMinJudgedSeconds are not judged (/proc/stat counts in 10 ms ticks).
// The 1-minute load average is recorded, not judged: it lags an epoch of seconds by a minute.
inline constexpr double kContendedSteal = 0.10;
inline constexpr double kContendedShare = 0.85;
inline constexpr double kContendedOtherCpus = 0.15;
inline constexpr double kMinJudgedSeconds = 0.05;

// Applies the rule above to `load` (its measured numbers; `wallSeconds` the epoch's length,
// `threads` the run's intra-op threads, `cpuDevice` true for device "cpu") and returns whether
// the epoch is contended. False when load.measured is false or a needed number is NaN.
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

// ---- reading the machine ------------------------------------------------------------------------
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

// Measures one epoch: begin() before the epoch's clock starts, end() after it stops (each
// reads /proc/stat, /proc/loadavg and the process CPU clock: well under a millisecond). Not
// thread-safe; one per run.
class EpochLoadMeter {
public:
    // `procRoot`: where stat and loadavg are read ("/proc"; tests give a folder of their own).
    explicit EpochLoadMeter(std::string procRoot = "/proc");
    void begin();
    // The epoch's load since begin(), judged with `threads` and `cpuDevice` (judgeContention).
    EpochLoad end(int threads, bool cpuDevice);

private:
    std::string m_procRoot;
    std::vector<int> m_cpus;
    double m_ticksPerSecond;
    std::chrono::steady_clock::time_point m_wall0;
    double m_cpu0 = 0.0;
    CpuTimes m_times0;
};

} // namespace devicebench
