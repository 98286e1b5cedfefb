// SPDX-License-Identifier: MIT
#include "proc_reader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <system_error>
#include <vector>

namespace devicebench::detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string pidFolder(const std::string &procRoot, int pid) {
    return procRoot + "/" + (pid == 0 ? std::string("self") : std::to_string(pid));
}

// The pids listed in <folder>/task/*/children (the children of every thread of the process).
std::vector<int> childrenOf(const std::string &folder) {
    std::vector<int> children;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder + "/task", ec), end; !ec && it != end;
         it.increment(ec)) {
        std::istringstream list(readSmallFile(it->path().string() + "/children"));
        for (int pid = 0; list >> pid;)
            children.push_back(pid);
    }
    return children;
}

} // namespace

std::string readSmallFile(const std::string &path, int *error) {
    std::FILE *file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        if (error != nullptr)
            *error = errno;
        return {};
    }
    std::string text;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0 && text.size() < (1u << 20))
        text.append(buffer, n);
    const bool failed = std::ferror(file) != 0;
    if (error != nullptr)
        *error = failed ? (errno != 0 ? errno : EIO) : 0;
    std::fclose(file);
    return failed ? std::string() : text;
}

namespace {

// Fields `a` and `b` (counted from 1, as proc(5) does) of /proc/<pid>/stat text, summed.
double sumStatFields(const std::string &statText, int a, int b) {
    const std::size_t close = statText.rfind(')');
    if (close == std::string::npos)
        return kNaN;
    // After "pid (comm)" the state is field 3.
    std::istringstream fields(statText.substr(close + 1));
    std::string field;
    double first = kNaN, second = kNaN;
    for (int index = 3; index <= b && fields >> field; ++index) {
        char *end = nullptr;
        if (index == a)
            first = std::strtod(field.c_str(), &end);
        else if (index == b)
            second = std::strtod(field.c_str(), &end);
        else
            continue;
        if (end == field.c_str() || *end != '\0')
            return kNaN;
    }
    return first + second;
}

// The line of `text` that starts with `key` ("VmRSS:"), "<number> kB", in bytes; NaN when
// absent or malformed.
double kibField(const std::string &text, const std::string &key) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(key, 0) != 0)
            continue;
        std::istringstream fields(line.substr(key.size()));
        double kib = 0.0;
        std::string unit;
        if (fields >> kib >> unit && unit == "kB" && kib >= 0.0)
            return kib * 1024.0;
        return kNaN;
    }
    return kNaN;
}

} // namespace

double parseStatCpuTicks(const std::string &statText) {
    return sumStatFields(statText, 14, 15); // utime, stime
}

double parseStatChildTicks(const std::string &statText) {
    return sumStatFields(statText, 16, 17); // cutime, cstime
}

double parseVmRssBytes(const std::string &statusText) { return kibField(statusText, "VmRSS:"); }

double parsePssBytes(const std::string &smapsRollupText) {
    return kibField(smapsRollupText, "Pss:");
}

ProcessTree readProcessTree(const std::string &procRoot, int root, double ticksPerSecond) {
    ProcessTree tree;
    double rss = 0.0, pss = 0.0;
    bool everyPss = true;
    std::vector<int> pending{root};
    while (!pending.empty() && tree.cpuSeconds.size() < 4096) {
        const int pid = pending.back();
        pending.pop_back();
        const std::string folder = pidFolder(procRoot, pid);
        const double ticks = parseStatCpuTicks(readSmallFile(folder + "/stat"));
        if (std::isnan(ticks)) {
            if (pid == root)
                return tree; // the run's process is gone: nothing to say
            continue;        // a descendant that ended while we looked
        }
        tree.cpuSeconds[pid] = ticks / ticksPerSecond;
        const double processRss = parseVmRssBytes(readSmallFile(folder + "/status"));
        if (!std::isnan(processRss))
            rss += processRss;
        const double processPss = parsePssBytes(readSmallFile(folder + "/smaps_rollup"));
        everyPss = everyPss && !std::isnan(processPss);
        pss += everyPss ? processPss : 0.0;
        for (int child : childrenOf(folder))
            if (tree.cpuSeconds.count(child) == 0)
                pending.push_back(child);
    }
    tree.valid = true;
    tree.proportional = everyPss;
    tree.rssBytes = everyPss ? pss : rss;
    return tree;
}

double busyCores(const ProcessTree &before, const ProcessTree &now, double wallSeconds) {
    if (!before.valid || !now.valid || !(wallSeconds > 0.0))
        return kNaN;
    double seconds = 0.0;
    for (const auto &[pid, cpu] : now.cpuSeconds) {
        const auto earlier = before.cpuSeconds.find(pid);
        seconds += earlier == before.cpuSeconds.end() ? cpu : std::max(0.0, cpu - earlier->second);
    }
    return seconds / wallSeconds;
}

} // namespace devicebench::detail
