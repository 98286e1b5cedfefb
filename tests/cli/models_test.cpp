// SPDX-License-Identifier: MIT
// `run --model` and `--image-size`, end to end: values other than the models and
// sizes offered are refused before any run; a tiny run at 64 px names its model, parameters
// and multiply-adds on its first line, records them, labels its CSV rows with the size, and
// `compare` prints its achieved GFLOP/s.
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using devicebench::testing::ProgramResult;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;

namespace devicebench {
namespace {

ProgramResult runCli(const TempDir &dir, const std::vector<std::string> &args) {
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, dir.path(), dir.path());
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

TEST(CliModels, AnUnknownModelOrImageSizeIsRefusedNamingTheValueBeforeAnyRun) {
    TempDir dir;
    const ProgramResult model = runCli(dir, {"run", "--synthetic", "--model", "resnet50"});
    EXPECT_EQ(model.exitCode, 2) << model.out << model.err;
    EXPECT_TRUE(
        contains(model.err, "--model: 'resnet50' is not one of small-cnn, resnet18 or vit-tiny"))
        << model.err;
    EXPECT_FALSE(contains(model.out, "run 1")) << model.out;
    const ProgramResult size = runCli(dir, {"run", "--synthetic", "--image-size", "48"});
    EXPECT_EQ(size.exitCode, 2) << size.out << size.err;
    EXPECT_TRUE(contains(size.err, "--image-size: '48' is not one of 32, 64 or 128")) << size.err;
    EXPECT_FALSE(contains(size.out, "run 1")) << size.out;
}

TEST(CliModels, ARunAt64PixelsNamesItsModelRecordsItAndCompareGivesItsThroughput) {
    TempDir dir;
    const std::string record = (dir.path() / "run.json").string();
    const std::string csv = (dir.path() / "run.csv").string();
    const ProgramResult run = runCli(dir, {"run",
                                           "--synthetic",
                                           "--image-size",
                                           "64",
                                           "--train-images",
                                           "8",
                                           "--test-images",
                                           "4",
                                           "--batch-size",
                                           "4",
                                           "--epochs",
                                           "2",
                                           "--warmup-epochs",
                                           "1",
                                           "--threads",
                                           "1",
                                           "--record",
                                           record,
                                           "--csv",
                                           csv});
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_TRUE(contains(run.out, "small-cnn at 64 px on CIFAR-10")) << run.out;
    // fc1 takes 64 x 8 x 8 inputs; every multiply-add but fc2's 640 grows 4 times.
    EXPECT_TRUE(contains(run.out, "run 1: cpu, 1 thread, small-cnn at 64 px (342,186 parameters, "
                                  "49.4 M multiply-adds per image), batch size 4"))
        << run.out;

    const RunRecord r = readRunRecord(record);
    EXPECT_EQ(r.model, "small-cnn");
    EXPECT_EQ(r.config.imageSize, 64);
    EXPECT_EQ(r.started.modelParameters, 342186);
    EXPECT_EQ(r.started.multiplyAddsPerImage, 49414784);
    EXPECT_TRUE(contains(slurp(csv), "\u00b7 64 px")) << slurp(csv);
    EXPECT_TRUE(contains(slurp(csv), ",small-cnn,64,342186,")) << slurp(csv);

    const ProgramResult compare = runCli(dir, {"compare", "--runs", record});
    ASSERT_EQ(compare.exitCode, 0) << compare.out << compare.err;
    EXPECT_TRUE(contains(compare.out, " GFLOP/s  small-cnn at 64 px (342,186 parameters"))
        << compare.out;
}

} // namespace
} // namespace devicebench
