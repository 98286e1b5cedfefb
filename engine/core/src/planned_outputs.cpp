// SPDX-License-Identifier: MIT
#include "devicebench/planned_outputs.h"

#include "devicebench/atomic_file.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace devicebench {
namespace {

namespace fs = std::filesystem;

// The path as the file system will resolve it: absolute, "." and ".." and the links of the
// part that exists resolved, so that "out/../x.csv" and "x.csv" are one file.
fs::path resolved(const std::string &path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
    return ec ? fs::absolute(path).lexically_normal() : p;
}

// "" when the file `path` can be written as writeFileAtomically writes it.
std::string fileProblem(const std::string &path) {
    const fs::path parent = fs::absolute(path).parent_path();
    std::error_code ec;
    if (!fs::is_directory(parent, ec))
        return "folder " + parent.string() + " does not exist";
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
        return "folder " + parent.string() + " is not writable";
    try {
        checkReplaceable(path);
    } catch (const AtomicWriteError &e) {
        return e.what();
    }
    return {};
}

// "" when the folder `path` exists and is writable, or can be made: its nearest existing
// ancestor is a writable folder (a file on the way cannot be one).
std::string folderProblem(const std::string &path) {
    fs::path p = fs::absolute(path).lexically_normal();
    std::error_code ec;
    if (fs::exists(p, ec)) {
        if (!fs::is_directory(p, ec))
            return "it is a file, not a folder";
        return ::access(p.c_str(), W_OK | X_OK) == 0 ? "" : "the folder is not writable";
    }
    while (p.has_parent_path() && p != p.parent_path() && !fs::exists(p, ec))
        p = p.parent_path();
    if (!fs::is_directory(p, ec))
        return p.string() + " is a file, so the folder cannot be made";
    if (::access(p.c_str(), W_OK | X_OK) != 0)
        return "cannot make it inside " + p.string() + ": not writable";
    return {};
}

} // namespace

std::vector<std::string> checkPlannedOutputs(const std::vector<PlannedOutput> &outputs) {
    std::vector<std::string> problems;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const PlannedOutput &out = outputs[i];
        if (out.path.empty())
            continue;
        const std::string problem = out.folder ? folderProblem(out.path) : fileProblem(out.path);
        if (!problem.empty())
            problems.push_back("cannot write " + out.what + " " + out.path + ": " + problem);
        for (std::size_t j = 0; j < i; ++j) {
            const PlannedOutput &earlier = outputs[j];
            if (!earlier.path.empty() && resolved(earlier.path) == resolved(out.path))
                problems.push_back(earlier.what + " and " + out.what + " both name " + out.path +
                                   ": give each a file of its own");
        }
    }
    return problems;
}

} // namespace devicebench
