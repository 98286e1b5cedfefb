// SPDX-License-Identifier: MIT
// The dashboard's command line checked before anything runs, as the CLI checks its own.
#pragma once

#include "dashboard_options.h"

#include "devicebench/run_types.h"

#include <deque>

namespace devicebench {

// The command line's settings and outputs checked before anything runs, as the CLI checks
// its own: every scripted run by the engine's checkRunRequest (the settings before the
// window's spin boxes clamp them, --epochs 0 would become 1; a script's Python); the
// --export-* files, --screenshot, --sweep-export-png and the --runs-folder by
// checkPlannedOutputs (writable, none another's, none a file the session reads: an --import
// record, a cell record of --sweep-folder, a record of --runs-folder); and the run numbers of
// --hide-run, --hover and --hover-bar against the most runs the session can show (`savedRuns`,
// the history the window loaded, then one per --run and --import; not checked with
// --reproduce); --sweep-folder a folder, and the options that need it given with it; the
// scripted runs' devices (ones this build can train on) and data folder (checkCifar10Folder).
// Returns the exit code, as the CLI's: 0 when all hold; after printing the messages on stderr,
// kExitNoData (3) for the data folder, else kExitBadInput (2). Nothing is run either way.
int checkCommandLineSettings(const RunConfig &config, const std::deque<ScriptedRun> &script,
                             const DashboardOptions &options, int savedRuns);

} // namespace devicebench
