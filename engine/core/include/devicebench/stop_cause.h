// SPDX-License-Identifier: MIT
// Why a run was asked to stop, for the reason its record ends with: "stopped by the user during
// epoch 3" after Ctrl-C or the Stop button, "stopped by SIGHUP (the terminal closed) during
// epoch 3" when a signal asked it. One per process: the programs' signal handlers note the
// signal, the runs' reasons read it.
#pragma once

#include <string>

namespace devicebench {

// Notes that `signal` asked this process's runs to stop (the first one noted stays).
// Async-signal-safe: a signal handler calls it.
void noteStopSignal(int signal) noexcept;

// "the user" while no signal was noted (Ctrl-C reaches a program as SIGINT, and is that), else
// the signal and what it means: "SIGHUP (the terminal closed)", "SIGTERM (asked to end)",
// "SIGQUIT (Ctrl-\)", "SIGPIPE (the output pipe closed)".
std::string stopCause();

// The signal's name, "SIGHUP"; "signal N" for one not named here.
std::string signalName(int signal);

// Forgets the noted signal (tests, and a program that goes on after a stop).
void clearStopCause() noexcept;

} // namespace devicebench
