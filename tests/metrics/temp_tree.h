// SPDX-License-Identifier: MIT
// A temporary folder of small text files (a fake /proc or /sys/class/powercap), removed when
// the object goes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace devicebench {

class TempTree {
public:
    TempTree() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "devicebench-tree-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            ADD_FAILURE() << "cannot make a temporary folder";
        m_path = pattern;
    }
    ~TempTree() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TempTree(const TempTree &) = delete;
    TempTree &operator=(const TempTree &) = delete;

    const std::string &path() const { return m_path; }
    std::string file(const std::string &relative) const { return m_path + "/" + relative; }

    // Writes `text` to `relative`, making its folders.
    void write(const std::string &relative, const std::string &text) const {
        const std::filesystem::path target = file(relative);
        std::filesystem::create_directories(target.parent_path());
        std::ofstream(target) << text;
    }

private:
    std::string m_path;
};

} // namespace devicebench
