// SPDX-License-Identifier: MIT
// Engine-internal (metrics): the CPU time and memory of a process and its descendants,
// and the whole machine's busy CPU time, read from /proc (Linux). Plain C++.
#pragma once

#include <map>
#include <string>

namespace devicebench::detail {

// CPU seconds (user + system) and resident bytes of the processes of one tree, per process.
struct ProcessTree {
    bool valid = false;               // false: the root process could not be read
    std::map<int, double> cpuSeconds; // pid -> its own CPU seconds (children that ended not
                                      // counted: /proc's cutime is only for waited-for ones)
    // The tree's memory: the sum of its processes' proportional set sizes (smaps_rollup's Pss:
    // a page shared by N processes counts 1/N in each, so the sum counts it once) when every
    // process's was readable, else the sum of their VmRSS (shared pages once per process).
    double rssBytes = 0.0;
    bool proportional = false; // rssBytes is the Pss sum
};

// Reads `root` (a pid; 0 = this process, /proc/self) and every descendant found through
// <procRoot>/<pid>/task/<tid>/children. `ticksPerSecond`: sysconf(_SC_CLK_TCK).
ProcessTree readProcessTree(const std::string &procRoot, int root, double ticksPerSecond);

// CPU cores a tree kept busy between two readings `wallSeconds` apart: the growth of each
// process's CPU seconds (a process new in `now` counts its whole time: it started in between,
// or its time before is unknown; one gone from `now` drops out). NaN if either is invalid or
// wallSeconds is not above 0.
double busyCores(const ProcessTree &before, const ProcessTree &now, double wallSeconds);

// The "VmRSS:" of /proc/<pid>/status text, in bytes; NaN when absent or malformed.
double parseVmRssBytes(const std::string &statusText);

// The "Pss:" of /proc/<pid>/smaps_rollup text (Linux 4.14+), in bytes; NaN when absent or
// malformed (an older kernel, another user's process).
double parsePssBytes(const std::string &smapsRollupText);

// utime + stime of /proc/<pid>/stat text, in ticks; NaN when malformed (the command name, in
// parentheses, may hold spaces and parentheses: fields are counted after its last ')').
double parseStatCpuTicks(const std::string &statText);

// cutime + cstime of /proc/<pid>/stat text (the CPU of its children that ended and were
// waited for), in ticks; NaN when malformed.
double parseStatChildTicks(const std::string &statText);

// The whole file `path` ("" when unreadable); small /proc and /sys files only.
std::string readSmallFile(const std::string &path, int *error = nullptr);

} // namespace devicebench::detail
