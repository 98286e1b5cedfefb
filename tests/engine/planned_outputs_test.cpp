// SPDX-License-Identifier: MIT
// The outputs of one command checked together before it runs (planned_outputs.h): what cannot
// be written is named with its path, two outputs of one file are refused, and nothing is made.
#include "devicebench/planned_outputs.h"

#include "cifar_files.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace devicebench {
namespace {

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

std::string joined(const std::vector<std::string> &problems) {
    std::string all;
    for (const std::string &p : problems)
        all += p + "\n";
    return all;
}

TEST(PlannedOutputs, FilesInWritableFoldersAndFoldersToMakePassAndNothingIsMade) {
    TempDir dir;
    const std::string csv = (dir.path() / "a.csv").string();
    const std::string runs = (dir.path() / "runs" / "today").string();
    EXPECT_TRUE(
        checkPlannedOutputs({{"--csv", csv}, {"--out-dir", runs, true}, {"--png", ""}}).empty());
    EXPECT_FALSE(fs::exists(csv));
    EXPECT_FALSE(fs::exists(dir.path() / "runs"));
}

TEST(PlannedOutputs, TwoOutputsOfOneFileAreRefusedNamingBothHoweverThePathIsSpelt) {
    TempDir dir;
    const std::string plain = (dir.path() / "both.dat").string();
    const std::string spelt = (dir.path() / "sub" / ".." / "both.dat").string();
    fs::create_directory(dir.path() / "sub");
    const std::vector<std::string> problems =
        checkPlannedOutputs({{"--csv", plain}, {"--png", spelt}});
    ASSERT_EQ(problems.size(), 1u) << joined(problems);
    EXPECT_NE(problems[0].find("--csv and --png both name"), std::string::npos) << problems[0];
}

TEST(PlannedOutputs, AFileAndAFolderOfOnePathAreRefusedToo) {
    TempDir dir;
    const std::string path = (dir.path() / "out").string();
    const std::vector<std::string> problems =
        checkPlannedOutputs({{"--out-dir", path, true}, {"--csv", path}});
    ASSERT_EQ(problems.size(), 1u) << joined(problems);
    EXPECT_NE(problems[0].find("--out-dir and --csv both name"), std::string::npos);
}

TEST(PlannedOutputs, AFolderWhereAFileGoesIsNamed) {
    TempDir dir;
    const std::vector<std::string> problems = checkPlannedOutputs({{"--csv", dir.path().string()}});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].rfind("cannot write --csv " + dir.path().string() + ": ", 0), 0u)
        << problems[0];
}

TEST(PlannedOutputs, AFileWhereAFolderGoesOrOnTheWayToItIsNamed) {
    TempDir dir;
    const fs::path file = dir.path() / "f";
    std::ofstream(file) << "x";
    const std::vector<std::string> problems = checkPlannedOutputs(
        {{"--out-dir", file.string(), true}, {"--logdir", (file / "logs").string(), true}});
    ASSERT_EQ(problems.size(), 2u) << joined(problems);
    EXPECT_NE(problems[0].find("cannot write --out-dir " + file.string() +
                               ": it is a file, not a folder"),
              std::string::npos)
        << problems[0];
    EXPECT_NE(problems[1].find("is a file, so the folder cannot be made"), std::string::npos)
        << problems[1];
}

TEST(PlannedOutputs, AMissingFolderOfAFileIsNamed) {
    TempDir dir;
    const std::string path = (dir.path() / "no-such" / "a.png").string();
    const std::vector<std::string> problems = checkPlannedOutputs({{"--png", path}});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("folder " + (dir.path() / "no-such").string() + " does not exist"),
              std::string::npos)
        << problems[0];
}

TEST(PlannedOutputs, AReadOnlyFolderIsNamedUnlessRunAsRoot) {
    if (::geteuid() == 0)
        GTEST_SKIP() << "root writes into a read-only folder";
    TempDir dir;
    const fs::path locked = dir.path() / "locked";
    fs::create_directory(locked);
    ::chmod(locked.c_str(), 0555);
    const std::vector<std::string> problems = checkPlannedOutputs(
        {{"--csv", (locked / "a.csv").string()}, {"--out-dir", (locked / "runs").string(), true}});
    ::chmod(locked.c_str(), 0755);
    EXPECT_EQ(problems.size(), 2u) << joined(problems);
}

} // namespace
} // namespace devicebench
