// SPDX-License-Identifier: MIT
// Every file and folder one command will write, checked together before anything runs (the
// CLI's run, reproduce, compare, report and sweep, the dashboard's scripted exports): a mistake
// in one does not cost a run, and no output silently replaces another or a file the command
// reads.
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

// One file a command reads (a run record, a price table, a data file), which no output may
// replace. `what` names it in messages ("the run record", "the --prices file"); "" paths are
// skipped.
struct PlannedInput {
    std::string what;
    std::string path;
};

// One message per problem, each naming the output and its path: a file whose folder is missing
// or not writable, a folder (or a device, pipe, socket) where a file goes, a file where a
// folder goes or on the way to it, a folder that cannot be made or written into; two outputs
// that are one file ("--csv and --png both name both.dat: give each a file of its own"); an
// output that is one of `inputs` ("--png in.json would replace the run record in.json, which
// this command reads: give --png a file of its own"). Paths are compared as the file system
// resolves them: "." and "..", and every symbolic link followed, one whose target does not
// exist yet and chains of links included. Writes and creates nothing. Empty when every output
// can be written.
std::vector<std::string> checkPlannedOutputs(const std::vector<PlannedOutput> &outputs,
                                             const std::vector<PlannedInput> &inputs = {});

// The file `path` is, as writing it would reach it: absolute, "." and ".." resolved, and the
// symbolic links on the way followed, also one whose target does not exist (yet), relative to
// the link's folder. A loop of links stops after 40 hops, as the kernel's does.
std::string resolvedOutputPath(const std::string &path);

// Every "*.json" file of the folder `folder` as an input named `what` (the records or reference
// files a command reads from a folder); none when `folder` is "", missing or unreadable.
std::vector<PlannedInput> jsonFilesIn(const std::string &folder, const std::string &what);

} // namespace devicebench
