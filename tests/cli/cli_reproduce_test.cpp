// SPDX-License-Identifier: MIT
// "Reproduce the article" from the command line: `reproduce` refuses a Python without torch
// before any run, runs the article's script then the faithful workload per device at the
// published settings (with the quick-look overrides), interleaved, and prints the article's
// table with the two programs' ratio; the ratio line of `compare --published`; the published
// rows in the summary CSV of compare and reproduce.
#include "devicebench/run_record.h"

#include "cifar_files.h"
#include "process_support.h"
#include "record_builder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace {

using devicebench::testing::namesIn;
using devicebench::testing::shellQuote;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;
namespace fs = std::filesystem;

const fs::path kResources = fs::path(DEVICEBENCH_REPO_DIR) / "resources";
constexpr const char *kRatioLine = "DeviceBench's faithful workload: ";

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// The Python with torch and torchvision for the article's script: $DEVICEBENCH_TEST_PYTHON, else
// the scripts/install-torch.sh venv CMake found.
std::string testPython() {
    const char *fromEnv = std::getenv("DEVICEBENCH_TEST_PYTHON");
    return fromEnv != nullptr && *fromEnv != '\0' ? fromEnv : DEVICEBENCH_TEST_PYTHON;
}

// A folder of its own (the user's data and cache folders), a synthetic data set in the CIFAR-10
// binary layout shared by the tests (whole batch files: the data check wants them), and the CLI
// run with the source tree's resources (the article's reference file and script).
class Reproduce : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_data = std::make_unique<TempDir>("devicebench-reproduce-data");
        devicebench::testing::writeDataset(s_data->path());
    }
    static void TearDownTestSuite() { s_data.reset(); }

    devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args,
                                               const std::string &resources = kResources) const {
        devicebench::testing::ProgramSetup setup;
        setup.env = "DEVICEBENCH_RESOURCES=" + shellQuote(resources) +
                    " XDG_DATA_HOME=" + shellQuote((m_dir.path() / "data").string()) +
                    " XDG_CACHE_HOME=" + shellQuote((m_dir.path() / "cache").string());
        return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, m_dir.path(), m_dir.path(),
                                                setup);
    }

    static std::unique_ptr<TempDir> s_data;
    TempDir m_dir{"devicebench-reproduce"};
    fs::path m_data = s_data->path();
    fs::path m_records = m_dir.path() / "records";
};

std::unique_ptr<TempDir> Reproduce::s_data;

TEST_F(Reproduce, APythonWithoutTorchIsRefusedBeforeAnyRunNamingIt) {
    for (const std::string python : {"/bin/false", "/nonexistent/python3"}) {
        const auto r = runCli({"reproduce", "--device", "cpu", "--python", python, "--data-dir",
                               m_data.string(), "--out-dir", m_records.string()});
        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
        EXPECT_TRUE(contains(r.err, "devicebench-cli: error: Python " + python)) << r.err;
        EXPECT_FALSE(contains(r.out, "epoch")) << "nothing ran:\n" << r.out;
        std::error_code ec;
        EXPECT_TRUE(!fs::exists(m_records, ec) || namesIn(m_records).empty())
            << "no record written";
    }
}

TEST_F(Reproduce, WithoutTheArticlesReferenceFileNothingRuns) {
    const auto r = runCli({"reproduce", "--device", "cpu", "--data-dir", m_data.string()},
                          (m_dir.path() / "no-resources").string());
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "reproduce needs the article's published results")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(Reproduce, AnOutDirThatIsAFileIsBadInputExitTwoBeforeAnyRun) {
    const fs::path file = m_dir.path() / "not-a-folder";
    std::ofstream(file) << "x";
    const auto r = runCli({"reproduce", "--device", "cpu", "--python", "/bin/false", "--data-dir",
                           m_data.string(), "--out-dir", file.string()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "--out-dir " + file.string() + ": it is a file")) << r.err;
    EXPECT_FALSE(contains(r.out, "epoch")) << "nothing ran:\n" << r.out;
}

TEST_F(Reproduce, NoDataFolderIsExitCodeThreeBeforeAnyRun) {
    const auto r = runCli({"reproduce", "--device", "cpu", "--python", "/bin/false", "--data-dir",
                           (m_dir.path() / "missing").string()});
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
}

// One real, tiny reproduction on the CPU: the script, then the faithful workload, at the
// article's settings but for 2 epochs of 200 + 40 images, interleaved; the script run is the
// baseline of the table, so the rows say "other settings" (not "other program").
TEST_F(Reproduce, RunsTheScriptThenTheFaithfulWorkloadAtThePublishedSettingsAndTheirRatio) {
    const auto probe = devicebench::testing::runProgram(
        "/bin/sh", {"-c", shellQuote(testPython()) + " -c 'import torch, torchvision'"},
        m_dir.path(), m_dir.path());
    if (probe.exitCode != 0)
        GTEST_SKIP() << testPython() << " lacks torch or torchvision: " << probe.err;
    const fs::path csv = m_dir.path() / "r.csv";
    const auto r =
        runCli({"reproduce",  "--device",         "cpu",      "--python",   testPython(),
                "--data-dir", m_data.string(),    "--epochs", "2",          "--train-images",
                "200",        "--test-images",    "40",       "--threads",  "1",
                "--out-dir",  m_records.string(), "--csv",    csv.string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto document = nlohmann::json::parse(r.out);
    EXPECT_EQ(document["command"], "reproduce");
    const auto &runs = document["runs"];
    ASSERT_EQ(runs.size(), 2U) << r.out;
    EXPECT_EQ(runs[0]["workload"], "article-script");
    EXPECT_EQ(runs[1]["workload"], "faithful");
    for (const auto &run : runs) {
        const auto &config = run["config"];
        EXPECT_EQ(config["device"], "cpu");
        EXPECT_EQ(config["batchSize"], 64) << "the published settings";
        EXPECT_DOUBLE_EQ(config["learningRate"].get<double>(), 0.01);
        EXPECT_EQ(config["epochs"], 2) << "--epochs overrides the published 10";
        EXPECT_EQ(config["warmupEpochs"], 1) << "the 2 warm-up epochs, at most epochs - 1";
        EXPECT_EQ(config["threads"], 1);
        EXPECT_EQ(config["trainImages"], 200) << "--train-images";
        EXPECT_EQ(run["started"]["testImages"], 40) << "--test-images";
        EXPECT_EQ(run["epochs"].size(), 2U);
        EXPECT_FALSE(run["recordFile"].is_null()) << "--out-dir";
    }
    EXPECT_EQ(namesIn(m_records).size(), 2U);
    const auto &ratios = document["programRatios"];
    ASSERT_EQ(ratios.size(), 1U) << r.out;
    EXPECT_EQ(ratios[0]["scriptRun"], 1);
    EXPECT_EQ(ratios[0]["faithfulRun"], 2);
    EXPECT_GT(ratios[0]["ratio"].get<double>(), 0.0);
    EXPECT_TRUE(contains(ratios[0]["line"].get<std::string>(), kRatioLine));
    const auto &published = document["published"];
    ASSERT_EQ(published.size(), 4U) << r.out;
    EXPECT_EQ(published[0]["match"], "other-settings") << published[0]["note"];
    EXPECT_TRUE(contains(published[0]["note"].get<std::string>(), "epochs 2 (article: 10)"))
        << published[0]["note"];
    const std::string summary = slurp(m_dir.path() / "r-summary.csv");
    EXPECT_TRUE(contains(summary, "article: Tesla T4 (Kaggle notebook)")) << summary;
}

// Two records that differ only in the program, written as files.
class CompareRatio : public ::testing::Test {
protected:
    std::string write(const std::string &name, const devicebench::RunRecord &record) const {
        const fs::path path = m_dir.path() / name;
        devicebench::writeRunRecord(path.string(), record);
        return path.string();
    }
    devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args) const {
        devicebench::testing::ProgramSetup setup;
        setup.env = "DEVICEBENCH_RESOURCES=" + shellQuote(kResources.string()) +
                    " XDG_DATA_HOME=" + shellQuote((m_dir.path() / "data").string());
        return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, m_dir.path(), m_dir.path(),
                                                setup);
    }
    static devicebench::RunRecord run(const std::string &id, const std::string &workload,
                                      double seconds) {
        devicebench::RunRecord r = devicebench::testing::articleSettingsRun(id, workload, seconds);
        r.fingerprint.hostName = "host-a";
        r.fingerprint.cpuModel = "AMD EPYC 7B13";
        r.started.threads = 2;
        r.started.deviceName = "CPU";
        r.data = {"/data", "cifar-10-binary", 50000, 10000, "0123456789abcdef"};
        for (devicebench::EpochResult &e : r.epochs) {
            e.trainLoss = 1.8;
            e.imagesPerSecond = 60000.0 / seconds;
        }
        return r;
    }

    TempDir m_dir{"devicebench-compare-ratio"};
};

TEST_F(CompareRatio, TheRatioLineFollowsThePublishedBlockForAScriptAndAFaithfulRun) {
    const std::string script = write("s.json", run("s", "article-script", 30.0));
    const std::string faithful = write("f.json", run("f", "faithful", 24.0));
    const auto r = runCli({"compare", "--published", script, faithful});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "DeviceBench's faithful workload: 0.80 x the article's script on "))
        << r.out;
    EXPECT_TRUE(contains(r.out, "(#2 against #1)\n")) << r.out;
    EXPECT_LT(r.out.find("published results"), r.out.find(kRatioLine)) << "after the block";

    const auto json = runCli({"compare", "--published", "--json", script, faithful});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto ratios = nlohmann::json::parse(json.out)["programRatios"];
    ASSERT_EQ(ratios.size(), 1U) << json.out;
    EXPECT_EQ(ratios[0]["scriptRun"], 1);
    EXPECT_EQ(ratios[0]["faithfulRun"], 2);
    EXPECT_DOUBLE_EQ(ratios[0]["ratio"].get<double>(), 0.8);
}

TEST_F(CompareRatio, NoRatioLineWhenMoreThanTheProgramDiffersOrWithoutPublished) {
    const std::string script = write("s.json", run("s", "article-script", 30.0));
    devicebench::RunRecord other = run("f", "faithful", 24.0);
    other.started.threads = 1; // another thread count: not the program alone
    const std::string faithful = write("f.json", other);
    const auto r = runCli({"compare", "--published", "--json", script, faithful});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(contains(r.out, "x the article's script on")) << r.out;
    EXPECT_TRUE(nlohmann::json::parse(r.out)["programRatios"].empty()) << r.out;

    const std::string same = write("g.json", run("g", "faithful", 24.0));
    const auto plain = runCli({"compare", script, same});
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_FALSE(contains(plain.out, kRatioLine)) << "no published block, no ratio\n" << plain.out;
}

TEST_F(CompareRatio, TheSummaryCsvOfComparePublishedHoldsThePublishedRowsWithTheirNotes) {
    const std::string faithful = write("f.json", run("f", "faithful", 24.0));
    const fs::path csv = m_dir.path() / "c.csv";
    const auto r = runCli({"compare", "--published", faithful, "--csv", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string summary = slurp(m_dir.path() / "c-summary.csv");
    EXPECT_TRUE(
        contains(summary.substr(0, summary.find('\n')), ",origin,published_note,published_source"))
        << summary;
    EXPECT_TRUE(contains(summary, "article: cloud CPU (Kaggle notebook),cloud CPU,,,published,"))
        << summary;
    EXPECT_TRUE(contains(summary, ",published,\"other program: DeviceBench's faithful workload, "
                                  "not the article's script\","))
        << summary;
    EXPECT_FALSE(contains(slurp(csv), "published")) << "the per-epoch file holds the runs";

    const fs::path plain = m_dir.path() / "p.csv";
    ASSERT_EQ(runCli({"compare", faithful, "--csv", plain.string()}).exitCode, 0);
    EXPECT_FALSE(contains(slurp(m_dir.path() / "p-summary.csv"), "origin"))
        << "without --published, the file of before";
}

} // namespace
