// SPDX-License-Identifier: MIT
// Tables of bad command lines for a program (the CLI's or the scripted dashboard's): each case
// must exit 2 with its message before anything runs (docs/ROBUSTNESS.md).
#pragma once

#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace devicebench::testing {

// One command line refused as bad input: its words and a part of the message.
struct Refusal {
    std::vector<std::string> args;
    std::string expected;
};

inline bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// `words` followed by `more`.
inline std::vector<std::string> with(std::vector<std::string> words,
                                     const std::vector<std::string> &more) {
    words.insert(words.end(), more.begin(), more.end());
    return words;
}

// Runs programs in a clean data environment, in a temporary home of its own (named after
// `prefix`), the dashboard offscreen.
class RefusalHarness {
public:
    explicit RefusalHarness(const std::string &prefix)
        : m_io(prefix + "-io"), m_home(prefix + "-home") {}

    ProgramResult run(const std::string &program, const std::vector<std::string> &args) const {
        ProgramSetup setup;
        setup.env =
            "XDG_DATA_HOME=" + shellQuote(m_home.path().string()) + " QT_QPA_PLATFORM=offscreen";
        return runProgram(program, args, m_home.path(), m_io.path(), setup);
    }

    // Each case exits 2 with its message, and nothing runs.
    void expectRefused(const std::string &program, const std::vector<Refusal> &cases) const {
        for (const Refusal &c : cases) {
            const ProgramResult r = run(program, c.args);
            std::string line;
            for (const std::string &arg : c.args)
                line += arg + " ";
            EXPECT_EQ(r.exitCode, 2) << line << "\n" << r.out << r.err;
            EXPECT_TRUE(contains(r.err, c.expected)) << line << "\nwanted: " << c.expected << "\n"
                                                     << r.err;
            EXPECT_FALSE(contains(r.out + r.err, "epoch 1")) << line << ": nothing may run";
        }
    }

private:
    TempDir m_io;
    TempDir m_home;
};

} // namespace devicebench::testing
