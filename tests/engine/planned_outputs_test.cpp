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

// Six files named as CIFAR-10's batch files in `dir` (their content does not matter here).
std::vector<std::string> cifar10LikeFiles(const fs::path &dir) {
    std::vector<std::string> files;
    for (const char *name : {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                             "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin"}) {
        std::ofstream(dir / name) << "x";
        files.push_back((dir / name).string());
    }
    return files;
}

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

// One output that is, once the links are followed, another output or a file the command reads:
// each is refused naming both, however the path reaches it.
struct ReachCase {
    const char *name;
    // Makes the case's files and links in `dir`; returns the outputs and inputs to check.
    void (*make)(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                 std::vector<PlannedInput> *inputs);
    const char *expected; // a part of the one message
};

void danglingLinkToAnotherOutput(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                                 std::vector<PlannedInput> *) {
    fs::create_symlink("report.html", dir / "link.png"); // report.html does not exist yet
    *outputs = {{"--html", (dir / "report.html").string()}, {"--png", (dir / "link.png").string()}};
}

void chainOfLinksToAnotherOutput(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                                 std::vector<PlannedInput> *) {
    fs::create_directory(dir / "sub");
    fs::create_symlink("../b", dir / "sub" / "a"); // sub/a -> b -> c.csv (dangling at the end)
    fs::create_symlink(dir / "c.csv", dir / "b");
    *outputs = {{"--csv", (dir / "c.csv").string()}, {"--png", (dir / "sub" / "a").string()}};
}

void outputIsAnInputRecord(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                           std::vector<PlannedInput> *inputs) {
    std::ofstream(dir / "run.json") << "{}";
    *inputs = {{"the run record", (dir / "run.json").string()}};
    *outputs = {{"--png", (dir / "." / "run.json").string()}};
}

void linkToAnInputRecord(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                         std::vector<PlannedInput> *inputs) {
    std::ofstream(dir / "run.json") << "{}";
    fs::create_symlink("run.json", dir / "out.csv");
    *inputs = {{"the run record", (dir / "run.json").string()}};
    *outputs = {{"--csv", (dir / "out.csv").string()}};
}

void outputIsADataFile(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                       std::vector<PlannedInput> *inputs) {
    fs::create_directory(dir / "data");
    for (const std::string &file : cifar10LikeFiles(dir / "data"))
        inputs->push_back({"the CIFAR-10 batch file", file});
    *outputs = {{"--csv", (dir / "data" / "test_batch.bin").string()}};
}

void linkToADataFile(const fs::path &dir, std::vector<PlannedOutput> *outputs,
                     std::vector<PlannedInput> *inputs) {
    fs::create_directory(dir / "data");
    for (const std::string &file : cifar10LikeFiles(dir / "data"))
        inputs->push_back({"the CIFAR-10 batch file", file});
    fs::create_symlink(dir / "data", dir / "alias"); // a linked folder on the way
    *outputs = {{"--record", (dir / "alias" / "data_batch_3.bin").string()}};
}

const ReachCase kReachCases[] = {
    {"a dangling link to another output", danglingLinkToAnotherOutput,
     "--html and --png both name"},
    {"a chain of links to another output", chainOfLinksToAnotherOutput,
     "--csv and --png both name"},
    {"an input record, spelt otherwise", outputIsAnInputRecord, "would replace the run record"},
    {"a link to an input record", linkToAnInputRecord, "would replace the run record"},
    {"a data file", outputIsADataFile, "would replace the CIFAR-10 batch file"},
    {"a data file through a linked folder", linkToADataFile,
     "would replace the CIFAR-10 batch file"},
};

TEST(PlannedOutputs, AnOutputThatIsAnotherOrAnInputThroughAnyPathIsRefused) {
    for (const ReachCase &c : kReachCases) {
        TempDir dir;
        std::vector<PlannedOutput> outputs;
        std::vector<PlannedInput> inputs;
        c.make(dir.path(), &outputs, &inputs);
        const std::vector<std::string> problems = checkPlannedOutputs(outputs, inputs);
        ASSERT_EQ(problems.size(), 1u) << c.name << ":\n" << joined(problems);
        EXPECT_NE(problems[0].find(c.expected), std::string::npos) << c.name << ": " << problems[0];
        EXPECT_NE(problems[0].find("of its own"), std::string::npos) << c.name;
    }
}

TEST(PlannedOutputs, ALoopOfLinksEndsAndTheInputsAloneAreNoProblem) {
    TempDir dir;
    fs::create_symlink("b", dir.path() / "a");
    fs::create_symlink("a", dir.path() / "b");
    EXPECT_FALSE(resolvedOutputPath((dir.path() / "a").string()).empty());
    std::ofstream(dir.path() / "run.json") << "{}";
    EXPECT_TRUE(checkPlannedOutputs({{"--csv", (dir.path() / "out.csv").string()}},
                                    {{"the run record", (dir.path() / "run.json").string()},
                                     {"the --prices file", ""}})
                    .empty());
}

} // namespace
} // namespace devicebench
