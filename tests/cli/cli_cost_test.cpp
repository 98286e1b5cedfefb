// SPDX-License-Identifier: MIT
// What runs cost in the CLI: compare's cost lines with the shipped prices or the user's
// (--price-per-hour, --price-per-kwh, --prices), --json's "cost" and the summary CSV's cost
// columns; bad prices refused with exit code 2 naming the flag and the value; `run` ends with
// the cost block.
#include "devicebench/run_record.h"

#include "cifar_files.h"
#include "csv_lines.h"
#include "process_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using devicebench::testing::TempDir;
namespace fs = std::filesystem;

const fs::path kExamples = fs::path(DEVICEBENCH_REPO_DIR) / "docs" / "examples";

devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args) {
    static TempDir io("devicebench-cost-io");
    static TempDir home("devicebench-cost-home");
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(), {});
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// An example record turned into a run on `gpu` (as cuda:0) of 12 s per stable epoch (30 s
// warm-up), each epoch with `joules` of measured energy when above 0.
fs::path writeGpuRecord(const TempDir &dir, const std::string &name, const std::string &gpu,
                        double joules = 0.0) {
    devicebench::RunRecord r =
        devicebench::readRunRecord((kExamples / "cpu-1-thread.json").string());
    r.runId += "-" + name;
    r.config.device = "cuda:0";
    r.started.device = "cuda:0";
    r.fingerprint.gpus = {devicebench::GpuInfo{0, gpu, 7, 5, 16LL << 30}};
    for (devicebench::EpochResult &e : r.epochs) {
        e.seconds = e.epoch <= r.config.warmupEpochs ? 30.0 : 12.0;
        if (joules > 0.0) {
            e.system.sampled = true;
            e.system.gpuEnergy = {devicebench::EnergyMethod::NvmlEnergyCounter, joules, ""};
        }
    }
    const fs::path path = dir.path() / (name + ".json");
    devicebench::writeRunRecord(path.string(), r);
    return path;
}

TEST(CompareCost, AT4RunCostsItsStableEpochsAtTheShippedT4Price) {
    TempDir dir("devicebench-cost-records");
    const auto r = runCli({"compare", writeGpuRecord(dir, "t4", "Tesla T4").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "per 10-epoch run = the article's 10 epochs")) << r.out;
    EXPECT_TRUE(contains(r.out, "#1 cost: 0.00117 USD per stable epoch, 0.0117 USD per "
                                "10-epoch run"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "at 0.35 USD/h (Tesla T4; https://computeprices.com"))
        << "the price's source\n"
        << r.out;
}

TEST(CompareCost, RepeatedRunsGetOneCostLineAGroupWithoutRuns) {
    TempDir dir("devicebench-cost-records");
    std::vector<std::string> args{"compare"};
    for (const char *name : {"a", "b", "c", "d"})
        args.push_back(writeGpuRecord(dir, name, "Tesla T4").string());
    const auto grouped = runCli(args);
    ASSERT_EQ(grouped.exitCode, 0) << grouped.err;
    EXPECT_TRUE(contains(grouped.out, "a group's the mean of its runs'")) << grouped.out;
    EXPECT_TRUE(contains(grouped.out, "group 1 (n = 4) cost: 0.00117 USD per stable epoch"))
        << grouped.out;
    EXPECT_FALSE(contains(grouped.out, "#4 cost:")) << "runs one by one only with --runs";
    args.push_back("--runs");
    const auto oneByOne = runCli(args);
    EXPECT_TRUE(contains(oneByOne.out, "#4 cost: 0.00117 USD per stable epoch")) << oneByOne.out;
}

// A group's cost line counts the runs its row counts: a run cancelled before its first stable
// epoch is in the group but in neither its mean nor its cost (it is not "priced differently").
TEST(CompareCost, AGroupsCostIsOverTheRunsWithAStableEpochAsItsRow) {
    TempDir dir("devicebench-cost-records");
    std::vector<std::string> args{"compare"};
    for (const char *name : {"a", "b", "c"})
        args.push_back(writeGpuRecord(dir, name, "Tesla T4").string());
    devicebench::RunRecord early = devicebench::readRunRecord(args.back());
    early.epochs.resize(static_cast<std::size_t>(early.config.warmupEpochs));
    early.status = "cancelled";
    devicebench::writeRunRecord(args.back(), early);
    const auto r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "group 1 (n = 2) cost: 0.00117 USD per stable epoch")) << r.out;
    EXPECT_FALSE(contains(r.out, "priced differently")) << r.out;
}

TEST(CompareCost, AnUnknownGpuIsNotAvailableUntilTheUserGivesAPrice) {
    TempDir dir("devicebench-cost-records");
    const std::string h200 = writeGpuRecord(dir, "h200", "NVIDIA H200").string();
    const auto none = runCli({"compare", h200});
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_TRUE(contains(none.out, "#1 cost: n/a: no price for NVIDIA H200")) << none.out;

    const auto mine = runCli({"compare", "--price-per-hour", "cuda=0.70", h200});
    ASSERT_EQ(mine.exitCode, 0) << mine.err;
    EXPECT_TRUE(contains(mine.out, "#1 cost: 0.00233 per stable epoch")) << mine.out;
    EXPECT_TRUE(contains(mine.out, "at 0.7/h (your price)")) << mine.out;
}

TEST(CompareCost, APricePerKwhCostsAFreeMachinesMeasuredEnergy) {
    TempDir dir("devicebench-cost-records");
    const std::string record = writeGpuRecord(dir, "local", "NVIDIA H200", 3600.0).string();
    const auto r =
        runCli({"compare", "--price-per-hour", "0", "--price-per-kwh", "0.5", record, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto cost = nlohmann::json::parse(r.out)["runs"][0]["cost"];
    EXPECT_EQ(cost["basis"], "energy");
    EXPECT_NEAR(cost["perEpoch"].get<double>(), 3600.0 / 3.6e6 * 0.5, 1e-12) << "1 Wh at 0.5";
    EXPECT_NEAR(cost["perTenEpochRun"].get<double>(), 10 * 3600.0 / 3.6e6 * 0.5, 1e-12);
    EXPECT_DOUBLE_EQ(cost["pricePerKwh"].get<double>(), 0.5);
}

TEST(CompareCost, JsonAndTheSummaryCsvCarryTheFigures) {
    TempDir dir("devicebench-cost-records");
    const std::string record = writeGpuRecord(dir, "t4", "Tesla T4").string();
    const std::string csv = (dir.path() / "out.csv").string();
    const auto r = runCli({"compare", record, "--json", "--csv", csv});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto cost = nlohmann::json::parse(r.out)["runs"][0]["cost"];
    EXPECT_EQ(cost["basis"], "hourly");
    EXPECT_NEAR(cost["perEpoch"].get<double>(), 0.35 * 12 / 3600, 1e-9);
    EXPECT_EQ(cost["priceMatch"], "Tesla T4");
    EXPECT_FALSE(cost["priceDate"].get<std::string>().empty());

    const auto lines = devicebench::testing::splitLines(
        devicebench::testing::slurp((dir.path() / "out-summary.csv").string()));
    ASSERT_EQ(lines.size(), 2U);
    const auto header = devicebench::testing::fieldsOf(lines[0]);
    const auto row = devicebench::testing::fieldsOf(lines[1]);
    const auto at = [&header](const std::string &name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) -
                                        header.begin());
    };
    ASSERT_LT(at("cost_per_epoch"), header.size());
    EXPECT_EQ(row[at("cost_basis")], "hourly");
    EXPECT_EQ(row[at("cost_per_epoch")], "0.00116667");
    EXPECT_EQ(row[at("cost_per_10_epochs")], "0.01166667");
}

TEST(CompareCost, AUsersPriceTableReplacesTheShippedOne) {
    TempDir dir("devicebench-cost-records");
    const fs::path table = dir.path() / "mine.json";
    std::ofstream(table) << R"({"format": "devicebench-prices", "version": 1, "prices": [
        {"match": "H200", "pricePerHour": 3.6, "currency": "EUR", "source": "my invoice",
         "date": "2026-01-01"}]})";
    const auto r = runCli({"compare", "--prices", table.string(),
                           writeGpuRecord(dir, "h200", "NVIDIA H200").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "#1 cost: 0.012 EUR per stable epoch")) << r.out;
    EXPECT_TRUE(contains(r.out, "(H200; my invoice, 2026-01-01)")) << r.out;
}

struct BadPrice {
    std::vector<std::string> args;
    std::string expected;
};

void PrintTo(const BadPrice &b, std::ostream *os) {
    for (const auto &a : b.args)
        *os << a << ' ';
}

class CostRejects : public ::testing::TestWithParam<BadPrice> {};

TEST_P(CostRejects, WithExitCodeTwoNamingTheFlagAndTheValue) {
    std::vector<std::string> args = {"compare", (kExamples / "cpu-1-thread.json").string()};
    args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
    const auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, GetParam().expected)) << r.err;
    EXPECT_FALSE(contains(r.out, "cost")) << "nothing compared: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, CostRejects,
    ::testing::Values(
        BadPrice{{"--price-per-hour=-1"}, "--price-per-hour '-1': -1 is negative"},
        BadPrice{{"--price-per-hour", "cheap"},
                 "--price-per-hour 'cheap': 'cheap' is not a number"},
        BadPrice{{"--price-per-hour", "tpu=1"}, "unknown device 'tpu' (cpu, cuda or cuda:N)"},
        BadPrice{{"--price-per-kwh", "nan"}, "--price-per-kwh 'nan': 'nan' is not a finite number"},
        BadPrice{{"--prices", "/nonexistent/prices.json"},
                 "--prices: /nonexistent/prices.json: does not exist"}));

TEST(CompareCost, ABadPriceTableNamesItsFieldAndValue) {
    TempDir dir("devicebench-cost-records");
    const fs::path table = dir.path() / "bad.json";
    std::ofstream(table) << R"({"format": "devicebench-prices", "version": 1, "prices": [
        {"match": "T4", "pricePerHour": -0.5, "currency": "USD", "source": "s", "date": "d"}]})";
    const auto r =
        runCli({"compare", "--prices", table.string(), (kExamples / "cpu-1-thread.json").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(contains(
        r.err, table.string() + ": field 'prices[0].pricePerHour' must be 0 or more (got -0.5)"))
        << r.err;
}

TEST(RunCost, TheRunsEndWithTheirCostAndABadPriceStopsBeforeTraining) {
    const std::vector<std::string> tiny = {"run",
                                           "--synthetic",
                                           "--epochs",
                                           "2",
                                           "--warmup-epochs",
                                           "1",
                                           "--train-images",
                                           "128",
                                           "--test-images",
                                           "64",
                                           "--threads",
                                           "1",
                                           "--batch-size",
                                           "32",
                                           "--no-published"};
    std::vector<std::string> priced = tiny;
    priced.insert(priced.end(), {"--price-per-hour", "cpu=3.6"});
    const auto r = runCli(priced);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "#1 cost: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "at 3.6/h (your price)")) << r.out;

    std::vector<std::string> bad = tiny;
    bad.insert(bad.end(), {"--price-per-hour", "x"});
    const auto refused = runCli(bad);
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_TRUE(contains(refused.err, "--price-per-hour 'x'")) << refused.err;
    EXPECT_FALSE(contains(refused.out, "epoch ")) << "no run may start: " << refused.out;
}

} // namespace
