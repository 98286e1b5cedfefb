// SPDX-License-Identifier: MIT
#include "devicebench/planned_outputs.h"

#include "devicebench/atomic_file.h"

#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

namespace devicebench {
namespace {

namespace fs = std::filesystem;

// The first of the leading paths of `p` ("/a", "/a/b", ...) that does not exist (links
// followed), with the rest of `p` after it; nullopt when `p` exists.
std::optional<std::pair<fs::path, fs::path>> firstMissing(const fs::path &p) {
    fs::path prefix;
    std::error_code ec;
    for (auto it = p.begin(); it != p.end(); ++it) {
        prefix /= *it;
        if (!fs::exists(prefix, ec)) {
            fs::path rest;
            for (++it; it != p.end(); ++it)
                rest /= *it;
            return std::make_pair(prefix, rest);
        }
    }
    return std::nullopt;
}

// "" when the file `path` can be written as writeFileAtomically writes it.
std::string fileProblem(const std::string &path) {
    const fs::path parent = fs::path(resolvedOutputPath(path)).parent_path();
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

std::string resolvedOutputPath(const std::string &path) {
    std::error_code ec;
    // Not normalised first: "link/.." is the link target's parent, as the kernel resolves it.
    fs::path p = fs::absolute(path, ec);
    for (int hop = 0; hop < 40; ++hop) {
        const fs::path canonical = fs::weakly_canonical(p, ec); // the links of what exists
        if (ec) {
            p = p.lexically_normal();
            break;
        }
        p = canonical;
        // What is left is a link whose target does not exist, or no link at all.
        const auto missing = firstMissing(p);
        if (!missing || !fs::is_symlink(fs::symlink_status(missing->first, ec)))
            break;
        const fs::path target = fs::read_symlink(missing->first, ec);
        if (ec)
            break;
        const fs::path through =
            target.is_absolute() ? target : missing->first.parent_path() / target;
        p = (missing->second.empty() ? through : through / missing->second).lexically_normal();
    }
    if (!p.has_filename() && p.has_relative_path()) // "runs/" is the folder "runs"
        p = p.parent_path();
    return p.string();
}

std::vector<PlannedInput> jsonFilesIn(const std::string &folder, const std::string &what) {
    std::vector<PlannedInput> files;
    std::error_code ec;
    if (folder.empty() || !fs::is_directory(folder, ec))
        return files;
    for (const auto &entry : fs::directory_iterator(folder, ec))
        if (entry.path().extension() == ".json" && !entry.is_directory(ec))
            files.push_back({what, entry.path().string()});
    return files;
}

std::vector<std::string> checkPlannedOutputs(const std::vector<PlannedOutput> &outputs,
                                             const std::vector<PlannedInput> &inputs) {
    std::vector<std::string> resolvedInputs;
    for (const PlannedInput &in : inputs)
        resolvedInputs.push_back(in.path.empty() ? "" : resolvedOutputPath(in.path));
    std::vector<std::string> resolvedOutputs;
    std::vector<std::string> problems;
    for (const PlannedOutput &out : outputs) {
        resolvedOutputs.push_back(out.path.empty() ? "" : resolvedOutputPath(out.path));
        if (out.path.empty())
            continue;
        const std::string problem = out.folder ? folderProblem(out.path) : fileProblem(out.path);
        if (!problem.empty())
            problems.push_back("cannot write " + out.what + " " + out.path + ": " + problem);
        for (std::size_t j = 0; j + 1 < resolvedOutputs.size(); ++j)
            if (resolvedOutputs[j] == resolvedOutputs.back())
                problems.push_back(outputs[j].what + " and " + out.what + " both name " + out.path +
                                   ": give each a file of its own");
        for (std::size_t k = 0; k < inputs.size(); ++k)
            if (!resolvedInputs[k].empty() && resolvedInputs[k] == resolvedOutputs.back())
                problems.push_back(out.what + " " + out.path + " would replace " + inputs[k].what +
                                   " " + inputs[k].path + ", which this command reads: give " +
                                   out.what + " a file of its own");
    }
    return problems;
}

} // namespace devicebench
