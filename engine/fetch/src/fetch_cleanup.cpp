// SPDX-License-Identifier: MIT
// Fetch clean-up: the temporary folder and the target folders a fetch made are removed unless
// the fetch succeeded.
#include "fetch_internal.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench::fetch_detail {

Cleanup::~Cleanup() {
    std::error_code ec;
    if (!m_tempDir.empty()) {
        fs::remove_all(m_tempDir, ec);
        if (ec) {
            spdlog::warn("fetch: cannot remove {}: {}", m_tempDir.string(), ec.message());
        }
    }
    // Innermost first; fs::remove() leaves a folder that is not empty.
    for (auto it = m_createdDirs.rbegin(); it != m_createdDirs.rend(); ++it) {
        fs::remove(*it, ec);
    }
}

// Creates `dir` and its missing parents, recording each one created in `cleanup`.
void createTargetDir(const fs::path &dir, Cleanup &cleanup) {
    std::vector<fs::path> missing;
    std::error_code ec;
    for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path()) {
            break;
        }
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (!fs::create_directory(*it, ec) && ec) {
            throw FetchError("cannot create the folder " + it->string() + ": " + ec.message());
        }
        cleanup.addCreatedDir(*it);
    }
    if (!fs::is_directory(dir, ec)) {
        throw FetchError(dir.string() + " is not a folder");
    }
}

fs::path makeTempDir(const fs::path &parent) {
    std::string pattern = (parent / (std::string(kTempPrefix) + "XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
        throw FetchError("cannot create a temporary folder in " + parent.string() + ": " +
                         errnoText(errno));
    }
    return fs::path(buffer.data());
}

} // namespace devicebench::fetch_detail
