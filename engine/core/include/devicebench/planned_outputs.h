// SPDX-License-Identifier: MIT
// Every file and folder one command will write, checked together before anything runs (the
// CLI's run, reproduce, compare, report and sweep, the dashboard's scripted exports): a mistake
// in one does not cost a run, and no output silently replaces another.
#pragma once

#include <string>
#include <vector>

namespace devicebench {

// One output of a command. `what` names it in messages as the user gave it ("--csv", "the
// summary CSV beside --csv"); `path` as given, "" when not asked for (skipped); `folder` for a
// folder the command creates when missing (--out-dir, --logdir) rather than a file it writes.
struct PlannedOutput {
    std::string what;
    std::string path;
    bool folder = false;
};

// One message per problem, each naming the output and its path: a file whose folder is missing
// or not writable, a folder (or a device, pipe, socket) where a file goes, a file where a
// folder goes or on the way to it, a folder that cannot be made or written into; two outputs
// that resolve to the same path ("--csv and --png both name both.dat: give each a file of its
// own"). Writes and creates nothing. Empty when every output can be written.
std::vector<std::string> checkPlannedOutputs(const std::vector<PlannedOutput> &outputs);

} // namespace devicebench
