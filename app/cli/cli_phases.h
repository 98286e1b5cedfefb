// SPDX-License-Identifier: MIT
// `devicebench-cli run --phases` ("where the time goes"): the note before the runs,
// each epoch's split and the summary's breakdown. The numbers: PhaseTimes (run_types.h) and
// phase_summary.h.
#pragma once

#include "devicebench/run_types.h"

#include <iosfwd>
#include <string>

namespace devicebench {
class RunSet;
}

namespace devicebench::cli {

// Printed once before phase-timed runs: what phase timing does to the run.
inline constexpr const char *kPhasesNote =
    "PHASE TIMING: the device is synchronised and the clock read at every phase of every step, "
    "which slows the run (on a GPU, much); these times are never compared with normal runs'";

// "  phases: data 4% forward 31% loss 1% backward 52% optimizer 6% test 6%" for a phase-timed
// epoch (phaseSplitText); "" for any other.
std::string epochPhasesText(const EpochResult &epoch);

// For a phase-timed run, the summary's lines on where the time goes: the mean seconds per
// stable epoch of each phase with its share, e.g.
//   "  where the time goes (mean of 2 stable epochs, phase-timed):\n"
//   "    data 0.021 s (4%), forward 0.170 s (31%), ... test 0.033 s (6%); sum 0.548 s\n"
// or a line saying that no stable epoch was phase-timed. Nothing for a normal run.
void printWhereTheTimeGoes(std::ostream &out, const RunOutcome &outcome, const RunConfig &config);

// For `compare`: one line per phase-timed run with its split over its stable epochs (the set's
// warm-up setting) and their mean seconds, under a header, e.g.
//   "where the time goes (phase-timed runs, mean per stable epoch):\n"
//   "  #1 data <1% forward 44% loss <1% backward 47% optimizer <1% test 9% (4.425 s)\n"
// Nothing when no run is phase-timed.
void printPhaseSplits(std::ostream &out, const RunSet &runs);

} // namespace devicebench::cli
