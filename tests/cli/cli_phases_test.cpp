// SPDX-License-Identifier: MIT
// `devicebench-cli run --phases` ("where the time goes"), as a user runs it: the
// note, each epoch's split, the summary's breakdown, and the phases in the CSV and the record.
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace {

devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args) {
    static TempDir io("devicebench-cli-phases-io");
    static TempDir home("devicebench-cli-phases-home");
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(),
                                            devicebench::testing::ProgramSetup{});
}

std::vector<std::string> lines(const fs::path &path) {
    std::vector<std::string> all;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        all.push_back(line);
    return all;
}

std::vector<std::string> cells(const std::string &line) {
    std::vector<std::string> all(1);
    for (const char ch : line) {
        if (ch == ',')
            all.emplace_back();
        else
            all.back() += ch;
    }
    return all;
}

std::vector<std::string> tinyRun(const fs::path &dir, bool phases) {
    std::vector<std::string> args = {"run",
                                     "--synthetic",
                                     "--epochs",
                                     "2",
                                     "--warmup-epochs",
                                     "1",
                                     "--train-images",
                                     "256",
                                     "--test-images",
                                     "64",
                                     "--threads",
                                     "1",
                                     "--batch-size",
                                     "32",
                                     "--csv",
                                     (dir / "out.csv").string(),
                                     "--record",
                                     (dir / "run.json").string()};
    if (phases)
        args.push_back("--phases");
    return args;
}

} // namespace

TEST(CliPhases, PhaseTimedRunPrintsTheNoteEachEpochsSplitAndWhereTheTimeGoes) {
    TempDir dir;
    const auto r = runCli(tinyRun(dir.path(), true));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("PHASE TIMING: the device is synchronised"), std::string::npos) << r.out;
    const std::regex split("epoch  [12]/2 .* phases: data (<1|[0-9]+)% forward (<1|[0-9]+)% loss "
                           "(<1|[0-9]+)% backward (<1|[0-9]+)% optimizer (<1|[0-9]+)% test "
                           "(<1|[0-9]+)%\n");
    EXPECT_EQ(std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), split),
                            std::sregex_iterator()),
              2)
        << r.out;
    EXPECT_NE(r.out.find("where the time goes (mean of 1 stable epoch, phase-timed):\n    data "),
              std::string::npos)
        << r.out;

    const auto csv = lines(dir.path() / "out.csv");
    ASSERT_EQ(csv.size(), 3U);
    const auto header = cells(csv[0]);
    const auto at = std::find(header.begin(), header.end(), "phase_backward_s") - header.begin();
    ASSERT_LT(static_cast<std::size_t>(at), header.size());
    EXPECT_GT(std::stod(cells(csv[2])[static_cast<std::size_t>(at)]), 0.0) << csv[2];
    auto summary = lines(dir.path() / "out-summary.csv");
    // The run's row; the published rows after it (run shows them by default) are not runs.
    summary.erase(std::remove_if(summary.begin(), summary.end(),
                                 [](const std::string &line) {
                                     return line.find(",published,") != std::string::npos;
                                 }),
                  summary.end());
    ASSERT_EQ(summary.size(), 2U);
    EXPECT_NE(summary[0].find("phase_data_fraction"), std::string::npos);
    EXPECT_NE(summary[1].find("phase-timed"), std::string::npos) << "the label says so";

    const devicebench::RunRecord record =
        devicebench::readRunRecord((dir.path() / "run.json").string());
    EXPECT_TRUE(record.config.phases);
    ASSERT_EQ(record.epochs.size(), 2U);
    EXPECT_TRUE(record.epochs[1].phases.measured);

    const auto compared = runCli({"compare", "--runs", (dir.path() / "run.json").string()});
    ASSERT_EQ(compared.exitCode, 0) << compared.out << compared.err;
    const std::regex line("where the time goes \\(phase-timed runs, mean per stable epoch\\):\n"
                          "  #1 data (<1|[0-9]+)% forward .* test (<1|[0-9]+)% \\([0-9.]+ s\\)\n");
    EXPECT_TRUE(std::regex_search(compared.out, line)) << compared.out;
}

TEST(CliPhases, NormalRunHasNoPhaseOutputAndEmptyPhaseCells) {
    TempDir dir;
    const auto r = runCli(tinyRun(dir.path(), false));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("PHASE TIMING"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("phases:"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("where the time goes"), std::string::npos) << r.out;
    const auto csv = lines(dir.path() / "out.csv");
    ASSERT_EQ(csv.size(), 3U);
    // The six phase cells empty, then the precision and no loss scaler's skipped steps (the
    // canary's columns follow).
    EXPECT_NE(csv[2].find(",,,,,,,fp32,,"), std::string::npos) << csv[2];
    EXPECT_FALSE(devicebench::readRunRecord((dir.path() / "run.json").string()).config.phases);
}

#ifdef DEVICEBENCH_HAVE_PNG
TEST(DashboardPhases, AScriptedPhaseTimedRunExportsItsPhasesAndPicture) {
    TempDir dir;
    const fs::path csv = dir.path() / "d.csv";
    const fs::path png = dir.path() / "d.png";
    devicebench::testing::ProgramSetup offscreen;
    offscreen.env = "QT_QPA_PLATFORM=offscreen XDG_DATA_HOME=" + (dir.path() / "data").string();
    const auto r = devicebench::testing::runProgram(
        DEVICEBENCH_DASHBOARD,
        {"--synthetic", "--epochs", "2", "--warmup-epochs", "1", "--train-images", "128",
         "--test-images", "32", "--phases", "--run", "cpu:1", "--export-csv", csv.string(),
         "--export-png", png.string(), "--quit"},
        dir.path(), dir.path(), offscreen);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(csv);
    ASSERT_EQ(rows.size(), 3U);
    EXPECT_NE(rows[2].find("(phase-timed)"), std::string::npos) << rows[2];
    EXPECT_NE(rows[2].substr(rows[2].size() - 6), ",,,,,,") << "phases measured: " << rows[2];
    EXPECT_TRUE(fs::exists(png));
}
#endif
