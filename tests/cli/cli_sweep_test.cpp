// SPDX-License-Identifier: MIT
// `devicebench-cli sweep` as a user runs it: the lines it prints, its CSV, and a sweep killed
// mid-way and run again (it resumes). Tiny cells: small-cnn at 32 px, batch 4-8, 2 timed steps,
// synthetic data, 1 thread, no peak.
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/sweep.h"

#ifdef DEVICEBENCH_HAVE_PNG
#include <QImage>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace {

devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args) {
    static TempDir io("devicebench-cli-sweep-io");
    static TempDir home("devicebench-cli-sweep-home");
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path());
}

std::vector<std::string> tinySweep(const fs::path &dir, const std::string &batchSizes) {
    return {"sweep",     "--model",       "small-cnn", "--batch-size",
            batchSizes,  "--device",      "cpu",       "--threads",
            "1",         "--steps",       "2",         "--warmup-steps",
            "1",         "--phase-steps", "1",         "--synthetic",
            "--no-peak", "--out-dir",     dir.string()};
}

std::vector<std::string> linesOf(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

} // namespace

TEST(CliSweep, PrintsOneLinePerCellAndWritesOneCsvRowPerCell) {
    TempDir dir;
    const fs::path csv = dir.path() / "s.csv";
    auto args = tinySweep(dir.path() / "sweep", "4,8");
    args.insert(args.end(), {"--csv", csv.string()});
#ifdef DEVICEBENCH_HAVE_PNG
    const fs::path png = dir.path() / "s.png";
    args.insert(args.end(), {"--png", png.string()});
#endif
    const auto r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("sweep of 2 cells"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[1/2] small-cnn b4 32px cpu x1: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[2/2] small-cnn b8 32px cpu x1: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" images/s ["), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("phases data "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("setup "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("resumed"), std::string::npos) << r.out;
    const auto rows = linesOf(devicebench::testing::slurp(csv));
    ASSERT_EQ(rows.size(), 3U);
    EXPECT_EQ(rows[0], devicebench::kSweepCsvHeader);
    EXPECT_EQ(rows[1].rfind("small-cnn,", 0), 0U) << rows[1];
    EXPECT_NE(rows[2].find(",finished,"), std::string::npos) << rows[2];
#ifdef DEVICEBENCH_HAVE_PNG
    const QImage image(QString::fromStdString(png.string()));
    EXPECT_FALSE(image.isNull()) << "the PNG reads back";
#endif
}

TEST(CliSweep, BadOptionsAreRefusedBeforeAnyCellRuns) {
    TempDir dir;
    auto args = tinySweep(dir.path() / "sweep", "4,2048");
    auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("batch size 2048 is not in 1..1024"), std::string::npos) << r.err;
    args = tinySweep(dir.path() / "sweep", "4");
    args.insert(args.end(), {"--baseline", "cpu x3"});
    r = runCli(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--baseline 'cpu x3' is not one of the sweep's devices (cpu x1)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "sweep"));
}

TEST(CliSweep, WithoutDataOrSyntheticItFailsAsRunDoes) {
    TempDir dir;
    auto args = tinySweep(dir.path() / "sweep", "4");
    args.erase(std::find(args.begin(), args.end(), "--synthetic"));
    const auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_NE(r.err.find("no data folder given"), std::string::npos) << r.err;
}

TEST(CliSweep, KilledAfterTheFirstCellItResumesWhenRunAgain) {
    TempDir dir;
    const fs::path sweep = dir.path() / "sweep";
    const auto args = tinySweep(sweep, "4,8,16");
    const fs::path first = sweep / "small-cnn_b4_s32_cpu_x1.json";
    {
        devicebench::testing::ChildProcess child(DEVICEBENCH_CLI, args);
        ASSERT_TRUE(child.started());
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (!fs::exists(first) && !child.exited() &&
               std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ASSERT_TRUE(fs::exists(first)) << "the first cell's record never appeared";
        child.signal(SIGKILL);
        child.wait();
    }
    // Only whole records: no temporary file, each record reads.
    std::vector<std::string> errors;
    const auto kept = devicebench::loadSweepFolder(sweep.string(), &errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    ASSERT_GE(kept.size(), 1U);
    for (const std::string &name : devicebench::testing::namesIn(sweep)) {
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
    }

    const auto r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("resumed: " + std::to_string(kept.size()) + " finished cell"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("small-cnn b4 32px"), std::string::npos) << "b4 is not redone: " << r.out;
    EXPECT_NE(r.out.find("sweep finished: 3 cells, 0 failed"), std::string::npos) << r.out;
    EXPECT_EQ(devicebench::loadSweepFolder(sweep.string(), nullptr).size(), 3U);
}
