// SPDX-License-Identifier: MIT
// What a run costs (cost.h): the price table's reader, the lookup of a run's price, the figures
// on the hourly and the energy basis, and the summary CSV's cost columns.
#include "cifar_files.h"

#include "devicebench/cost.h"
#include "devicebench/csv_export.h"
#include "devicebench/run_set.h"
#include "devicebench/summary.h"

#include "csv_lines.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using devicebench::testing::TempDir;

namespace devicebench {
namespace {

using testing::fieldsOf;
using testing::splitLines;

// A run of `seconds` per epoch (the first is warm-up) on `device`, 1000 images per epoch, in a
// machine with a Tesla T4 as GPU 0.
RunRecord recordOn(const std::string &device, const std::vector<double> &seconds,
                   const std::string &gpu = "Tesla T4") {
    RunRecord r;
    r.runId = device + gpu;
    r.config.device = device;
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = 1;
    r.started.device = device;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.fingerprint.hostName = "host";
    r.fingerprint.gpus.push_back(GpuInfo{0, gpu, 7, 5, 16LL << 30});
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = seconds[i];
        e.imagesPerSecond = 1000.0 / seconds[i];
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

// Each epoch measured `joules` by RAPL.
RunRecord withEnergy(RunRecord r, double joules) {
    for (EpochResult &e : r.epochs) {
        e.system.sampled = true;
        e.system.cpuEnergy = EnergyReading{EnergyMethod::Rapl, joules, "package-0"};
    }
    return r;
}

Summary summaryOf(const RunRecord &r) { return summarize(r.epochs, 1, 1000.0); }

PriceTable shippedLikeTable() {
    PriceTable table;
    table.prices = {
        {"Tesla T4", 0.35, "USD", "a page", "2026-03-31", ""},
        {"H100", 3.78, "USD", "another page", "2026-05-07", ""},
        {"H100 PCIe", 2.86, "USD", "another page", "2026-05-07", ""},
        {"cpu", 0.0, "", "your own machine", "", "already paid for"},
    };
    return table;
}

CostSettings settingsOf(PriceTable table) {
    CostSettings settings;
    settings.table = std::move(table);
    return settings;
}

// ---- the price table's reader -----------------------------------------------------------------

const char *const kGoodTable = R"({
  "format": "devicebench-prices", "version": 1, "note": "examples",
  "prices": [
    {"match": "Tesla T4", "pricePerHour": 0.35, "currency": "USD", "source": "page",
     "date": "2026-03-31"},
    {"match": "cpu", "pricePerHour": 0, "currency": "", "source": "mine", "date": "",
     "note": "already paid for"}
  ]
})";

TEST(PriceTableReader, ReadsEveryFieldOfEachEntry) {
    const PriceTable table = parsePriceTable(kGoodTable, "prices.json");
    EXPECT_EQ(table.file, "prices.json");
    EXPECT_EQ(table.note, "examples");
    ASSERT_EQ(table.prices.size(), 2U);
    EXPECT_EQ(table.prices[0].match, "Tesla T4");
    EXPECT_DOUBLE_EQ(table.prices[0].perHour, 0.35);
    EXPECT_EQ(table.prices[0].currency, "USD");
    EXPECT_EQ(table.prices[0].source, "page");
    EXPECT_EQ(table.prices[0].date, "2026-03-31");
    EXPECT_EQ(table.prices[0].note, "");
    EXPECT_EQ(table.prices[1].note, "already paid for");
}

TEST(PriceTableReader, WritesWhatItReads) {
    const PriceTable table = parsePriceTable(kGoodTable, "a");
    const PriceTable again = parsePriceTable(priceTableJson(table), "b");
    ASSERT_EQ(again.prices.size(), table.prices.size());
    EXPECT_EQ(again.note, table.note);
    EXPECT_EQ(again.prices[1].match, "cpu");
    EXPECT_EQ(again.prices[1].note, "already paid for");
    EXPECT_DOUBLE_EQ(again.prices[0].perHour, 0.35);
}

// The message of the PriceError that parsing `text` throws; "" when it reads.
std::string errorOf(const std::string &text) {
    try {
        parsePriceTable(text, "p.json");
    } catch (const PriceError &e) {
        return e.what();
    }
    return "";
}

std::string tableWithEntry(const std::string &entry) {
    return R"({"format": "devicebench-prices", "version": 1, "prices": [)" + entry + "]}";
}

TEST(PriceTableReader, NamesTheFileTheFieldAndTheValueOfABadPrice) {
    EXPECT_EQ(errorOf(tableWithEntry(R"({"match": "A100", "pricePerHour": -1, "currency": "USD",
                                         "source": "s", "date": "d"})")),
              "p.json: field 'prices[0].pricePerHour' must be 0 or more (got -1)");
    EXPECT_EQ(errorOf(tableWithEntry(R"({"match": "A100", "pricePerHour": "cheap",
                                         "currency": "USD", "source": "s", "date": "d"})")),
              "p.json: field 'prices[0].pricePerHour' must be a number (got \"cheap\")");
    EXPECT_EQ(errorOf(tableWithEntry(R"({"match": "A100", "pricePerHour": null,
                                         "currency": "USD", "source": "s", "date": "d"})")),
              "p.json: field 'prices[0].pricePerHour' must be a number (got null)");
    // JSON has no infinity; a number beyond a double's range is refused as it is read.
    EXPECT_NE(errorOf(tableWithEntry(R"({"match": "A100", "pricePerHour": 1e999,
                                         "currency": "USD", "source": "s", "date": "d"})"))
                  .find("p.json: not JSON"),
              std::string::npos);
}

TEST(PriceTableReader, NamesEachMissingField) {
    for (const char *field : {"match", "pricePerHour", "currency", "source", "date"}) {
        std::string entry = R"({"match": "A100", "pricePerHour": 1, "currency": "USD",
                                "source": "s", "date": "d"})";
        const std::string key = std::string("\"") + field + "\"";
        entry.replace(entry.find(key), key.size(), "\"other\"");
        EXPECT_EQ(errorOf(tableWithEntry(entry)),
                  std::string("p.json: field 'prices[0].") + field + "' is missing");
    }
}

TEST(PriceTableReader, RefusesAnotherFormatVersionOrNoList) {
    EXPECT_EQ(errorOf(R"({"format": "x", "version": 1, "prices": []})"),
              "p.json: field 'format' must be \"devicebench-prices\" (got \"x\")");
    EXPECT_EQ(errorOf(R"({"format": "devicebench-prices", "version": 2, "prices": []})"),
              "p.json: field 'version' must be 1 (got 2)");
    EXPECT_EQ(errorOf(R"({"format": "devicebench-prices", "version": 1, "prices": {}})"),
              "p.json: field 'prices' must be an array");
    EXPECT_EQ(errorOf(tableWithEntry(R"({"match": "", "pricePerHour": 1, "currency": "USD",
                                         "source": "s", "date": "d"})")),
              "p.json: field 'prices[0].match' must not be empty");
    EXPECT_NE(errorOf("{not json").find("p.json: not JSON"), std::string::npos);
}

TEST(PriceTableReader, RefusesTwoEntriesForOneName) {
    const std::string twice = R"({"format": "devicebench-prices", "version": 1, "prices": [
        {"match": "Tesla T4", "pricePerHour": 0.35, "currency": "USD", "source": "s", "date": "d"},
        {"match": "tesla t4", "pricePerHour": 0.5, "currency": "USD", "source": "s", "date": "d"}
    ]})";
    EXPECT_EQ(errorOf(twice), "p.json: field 'prices[1].match' repeats prices[0]'s \"Tesla T4\"");
}

TEST(PriceTableReader, AFolderIsNamedAsOne) {
    TempDir dir;
    try {
        readPriceTable(dir.path().string());
        FAIL() << "a folder read";
    } catch (const PriceError &e) {
        EXPECT_EQ(std::string(e.what()),
                  dir.path().string() + ": is a folder, not a price table (a JSON file)");
    }
}

TEST(PriceTableReader, AnAbsentAnUnreadableAndAMalformedTableAreToldApart) {
    TempDir dir;
    const std::string missing = (dir.path() / "none.json").string();
    const std::string huge = (dir.path() / "huge.json").string();
    std::ofstream(huge).close();
    std::filesystem::resize_file(huge, 2 * 1024 * 1024); // refused unread
    const std::string bad = (dir.path() / "bad.json").string();
    std::ofstream(bad) << "{\"format\": ";
    const std::vector<std::pair<std::string, std::string>> cases{
        {missing, missing + ": does not exist"},
        {huge, huge + ": exists but cannot be read (larger than 1048576 bytes)"},
        {bad, bad + ": not JSON: parse error at line 1, column 12"}};
    for (const auto &[path, said] : cases) {
        try {
            readPriceTable(path);
            ADD_FAILURE() << path << " read";
        } catch (const PriceError &e) {
            EXPECT_EQ(std::string(e.what()).rfind(said, 0), 0U) << e.what();
        }
    }
}

TEST(PriceTableReader, ReadsTheShippedTable) {
    const PriceTable table =
        readPriceTable(std::string(DEVICEBENCH_SOURCE_DIR) + "/resources/prices/prices.json");
    ASSERT_FALSE(table.prices.empty());
    for (const DevicePrice &price : table.prices) {
        EXPECT_FALSE(price.source.empty()) << price.match << ": every price says its source";
        if (price.perHour > 0.0) {
            EXPECT_FALSE(price.date.empty()) << price.match << ": and its date";
            EXPECT_EQ(price.currency, "USD") << price.match;
        }
    }
}

// ---- the lookup ---------------------------------------------------------------------------------

TEST(PriceLookup, AT4RunMatchesTheT4Entry) {
    const RunPrice price = priceOfRun(recordOn("cuda:0", {20, 12}), settingsOf(shippedLikeTable()));
    ASSERT_TRUE(price.found);
    EXPECT_DOUBLE_EQ(price.perHour, 0.35);
    EXPECT_EQ(price.match, "Tesla T4");
    EXPECT_EQ(price.source, "a page");
    EXPECT_EQ(price.date, "2026-03-31");
}

TEST(PriceLookup, TheLongestMatchWinsWhateverTheOrder) {
    const CostSettings settings = settingsOf(shippedLikeTable());
    EXPECT_DOUBLE_EQ(priceOfRun(recordOn("cuda", {2, 1}, "NVIDIA H100 PCIe"), settings).perHour,
                     2.86);
    EXPECT_DOUBLE_EQ(
        priceOfRun(recordOn("cuda", {2, 1}, "NVIDIA H100 80GB HBM3"), settings).perHour, 3.78);
}

TEST(PriceLookup, AnUnknownGpuHasNoPriceAndSaysWhich) {
    const RunPrice price =
        priceOfRun(recordOn("cuda:0", {2, 1}, "NVIDIA H200"), settingsOf(shippedLikeTable()));
    EXPECT_FALSE(price.found);
    EXPECT_TRUE(std::isnan(price.perHour));
    EXPECT_EQ(price.reason, "no price for NVIDIA H200");
}

TEST(PriceLookup, ACpuRunGetsTheCpuEntryNotTheMachinesGpu) {
    const RunPrice price = priceOfRun(recordOn("cpu", {2, 1}), settingsOf(shippedLikeTable()));
    ASSERT_TRUE(price.found);
    EXPECT_EQ(price.match, "cpu");
    EXPECT_DOUBLE_EQ(price.perHour, 0.0);
}

TEST(PriceLookup, TheUsersPriceWinsAndADevicesOwnWinsOverTheOneForEveryRun) {
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.overrides = {{"", 9.0}, {"cuda", 0.5}};
    settings.currency = "EUR";
    const RunPrice gpu = priceOfRun(recordOn("cuda:0", {2, 1}), settings);
    EXPECT_DOUBLE_EQ(gpu.perHour, 0.5);
    EXPECT_EQ(gpu.match, "your price");
    EXPECT_EQ(gpu.currency, "EUR");
    EXPECT_DOUBLE_EQ(priceOfRun(recordOn("cpu", {2, 1}), settings).perHour, 9.0);
    settings.overrides.push_back({"cuda:1", 0.7});
    EXPECT_DOUBLE_EQ(priceOfRun(recordOn("cuda:1", {2, 1}), settings).perHour, 0.7);
    EXPECT_DOUBLE_EQ(priceOfRun(recordOn("cuda:0", {2, 1}), settings).perHour, 0.5);
}

TEST(PriceOverrides, ReadOneNumberOrDevicePricePairs) {
    std::vector<PriceOverride> overrides;
    EXPECT_EQ(parsePriceOverrides("0.35", &overrides), "");
    ASSERT_EQ(overrides.size(), 1U);
    EXPECT_EQ(overrides[0].device, "");
    EXPECT_DOUBLE_EQ(overrides[0].perHour, 0.35);
    EXPECT_EQ(parsePriceOverrides("cuda=0.35, cpu=0", &overrides), "");
    ASSERT_EQ(overrides.size(), 2U);
    EXPECT_EQ(overrides[0].device, "cuda");
    EXPECT_EQ(overrides[1].device, "cpu");
    EXPECT_DOUBLE_EQ(overrides[1].perHour, 0.0);
}

TEST(PriceOverrides, SayWhatIsWrongAndKeepWhatWasThere) {
    std::vector<PriceOverride> overrides{{"cpu", 1.0}};
    EXPECT_EQ(parsePriceOverrides("abc", &overrides), "'abc' is not a number");
    EXPECT_EQ(parsePriceOverrides("-1", &overrides), "-1 is negative (a price is 0 or more)");
    EXPECT_EQ(parsePriceOverrides("inf", &overrides), "'inf' is not a finite number");
    EXPECT_EQ(parsePriceOverrides("tpu=1", &overrides),
              "unknown device 'tpu' (cpu, cuda or cuda:N)");
    EXPECT_EQ(parsePriceOverrides("cuda=x", &overrides), "cuda: 'x' is not a number");
    EXPECT_EQ(parsePriceOverrides("cuda=1,cpu", &overrides), "'cpu' is not DEVICE=PRICE");
    EXPECT_EQ(parsePriceOverrides("cuda=1,CUDA=2", &overrides), "cuda is given twice");
    ASSERT_EQ(overrides.size(), 1U);
    EXPECT_EQ(overrides[0].device, "cpu");
}

// ---- the figures
// ----------------------------------------------------------------------------------

TEST(RunCostHourly, TwelveSecondsAt35CentsAnHour) {
    const RunRecord r = recordOn("cuda:0", {30, 12, 12});
    const RunCost cost = costOfRun(r, summaryOf(r), 1, settingsOf(shippedLikeTable()));
    EXPECT_EQ(cost.basis, CostBasis::Hourly);
    EXPECT_NEAR(cost.perEpoch, 0.0011667, 1e-7) << "0.35 x 12 / 3600";
    EXPECT_NEAR(cost.perRun, 0.011667, 1e-6) << "the article's 10 epochs";
    EXPECT_NEAR(cost.imagesPerMoney, 1000.0 / (0.35 * 12 / 3600), 1e-3);
    EXPECT_EQ(cost.currency, "USD");
    EXPECT_EQ(costLine(cost), "cost: 0.00117 USD per stable epoch, 0.0117 USD per 10-epoch run, "
                              "857000 images per USD; at 0.35 USD/h (Tesla T4; a page, "
                              "2026-03-31)");
}

TEST(RunCostHourly, AMachineAlreadyPaidForIsFreeWithoutAPricePerKwh) {
    const RunRecord r = recordOn("cpu", {30, 12, 12});
    const RunCost cost = costOfRun(r, summaryOf(r), 1, settingsOf(shippedLikeTable()));
    EXPECT_EQ(cost.basis, CostBasis::Free);
    EXPECT_EQ(cost.perEpoch, 0.0);
    EXPECT_TRUE(std::isnan(cost.imagesPerMoney)) << "no images per unit of a free run's money";
    EXPECT_EQ(imagesPerMoneyText(cost), "free");
    EXPECT_EQ(costLine(cost), "cost: free; 0/h (cpu; your own machine): already paid for");
}

TEST(RunCostEnergy, MeasuredJoulesAtAPricePerKwh) {
    const RunRecord r = withEnergy(recordOn("cpu", {30, 12, 12}), 1800.0);
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.perKwh = 0.30;
    settings.currency = "EUR";
    const RunCost cost = costOfRun(r, summaryOf(r), 1, settings);
    EXPECT_EQ(cost.basis, CostBasis::Energy);
    EXPECT_NEAR(cost.perEpoch, 1800.0 / 3.6e6 * 0.30, 1e-12) << "0.5 Wh at 0.30 a kWh";
    EXPECT_DOUBLE_EQ(cost.joulesPerEpoch, 1800.0);
    EXPECT_EQ(cost.currency, "EUR");
    EXPECT_EQ(costBasisText(cost), "from 1800 J per stable epoch at 0.3 EUR/kWh");
}

TEST(RunCostEnergy, ARentedMachinesHourlyPriceWinsOverItsEnergy) {
    const RunRecord r = withEnergy(recordOn("cuda:0", {30, 12, 12}), 1800.0);
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.perKwh = 0.30;
    EXPECT_EQ(costOfRun(r, summaryOf(r), 1, settings).basis, CostBasis::Hourly);
}

TEST(RunCostEnergy, ARunWithoutEnergyHasNoFigureAndSaysWhy) {
    const RunRecord r = recordOn("cpu", {30, 12, 12});
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.perKwh = 0.30;
    const RunCost cost = costOfRun(r, summaryOf(r), 1, settings);
    EXPECT_EQ(cost.basis, CostBasis::None);
    EXPECT_TRUE(std::isnan(cost.perEpoch));
    const std::string why = "no energy measured: not sampled (a record from before sampling, or "
                            "DEVICEBENCH_SAMPLING_PERIOD=0)";
    EXPECT_EQ(cost.reason, why);
    EXPECT_EQ(costLine(cost), "cost: n/a: " + why);
}

TEST(RunCostEnergy, AFreeKwhMakesTheRunFreeMeasuredOrNot) {
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.perKwh = 0.0;
    settings.currency = "EUR";
    for (const RunRecord &r :
         {recordOn("cpu", {30, 12, 12}), withEnergy(recordOn("cpu", {30, 12, 12}), 1800.0)}) {
        const RunCost cost = costOfRun(r, summaryOf(r), 1, settings);
        EXPECT_EQ(cost.basis, CostBasis::Free);
        EXPECT_EQ(cost.perEpoch, 0.0);
        EXPECT_EQ(costLine(cost), "cost: free; 0 EUR/kWh (your price)");
    }
}

TEST(RunCostHourly, HugeAndTinyPricesKeepTheirDigitsInExponentForm) {
    const RunRecord r = recordOn("cuda:0", {30, 12, 12});
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.overrides = {{"cuda", 1e100}};
    const RunCost huge = costOfRun(r, summaryOf(r), 1, settings);
    EXPECT_EQ(moneyText(huge.perEpoch, ""), "3.33e+97") << "1e100 x 12 / 3600";
    EXPECT_EQ(moneyText(huge.perRun, ""), "3.33e+98") << "ten times the epoch";
    EXPECT_EQ(costBasisText(huge), "at 1e+100/h (your price)");
    settings.overrides = {{"cuda", 1e-7}};
    const RunCost tiny = costOfRun(r, summaryOf(r), 1, settings);
    EXPECT_EQ(moneyText(tiny.perEpoch, "USD"), "3.33e-10 USD");
    EXPECT_EQ(costBasisText(tiny), "at 1e-07/h (your price)");
    EXPECT_EQ(moneyText(0.00116667, ""), "0.00117") << "ordinary sums stay in fixed form";
    EXPECT_EQ(moneyText(857142.9, ""), "857000");
}

TEST(GroupCost, TheMeanOfItsRunsFiguresOrNoneWhenTheyArePricedDifferently) {
    const CostSettings settings = settingsOf(shippedLikeTable());
    const RunRecord fast = recordOn("cuda:0", {30, 12, 12});
    const RunRecord slow = recordOn("cuda:0", {30, 24, 24});
    const RunCost mean = meanCost({costOfRun(fast, summaryOf(fast), 1, settings),
                                   costOfRun(slow, summaryOf(slow), 1, settings)});
    EXPECT_EQ(mean.basis, CostBasis::Hourly);
    EXPECT_NEAR(mean.perEpoch, 0.35 * 18 / 3600, 1e-12) << "the mean of 12 s and 24 s at 0.35/h";
    EXPECT_NEAR(mean.perRun, 10 * 0.35 * 18 / 3600, 1e-12);
    const RunRecord cpu = recordOn("cpu", {30, 12, 12});
    const RunCost mixed = meanCost({costOfRun(fast, summaryOf(fast), 1, settings),
                                    costOfRun(cpu, summaryOf(cpu), 1, settings)});
    EXPECT_EQ(mixed.basis, CostBasis::None);
    EXPECT_EQ(mixed.reason, "its runs are priced differently (see them one by one)");
    EXPECT_EQ(meanCost({}).reason, "no run with a stable epoch");
}

TEST(RunCost, NoPriceOrNoStableEpochGivesNoFigure) {
    const RunRecord h200 = recordOn("cuda:0", {30, 12}, "NVIDIA H200");
    const RunCost unpriced = costOfRun(h200, summaryOf(h200), 1, settingsOf(shippedLikeTable()));
    EXPECT_EQ(unpriced.basis, CostBasis::None);
    EXPECT_EQ(costLine(unpriced), "cost: n/a: no price for NVIDIA H200");
    const RunRecord warmupOnly = recordOn("cuda:0", {30});
    EXPECT_EQ(
        costOfRun(warmupOnly, summaryOf(warmupOnly), 1, settingsOf(shippedLikeTable())).reason,
        "no stable epoch");
}

// ---- the summary CSV
// ------------------------------------------------------------------------------

// A summary CSV line's fields up to the cost columns' end: the five columns of time to accuracy
// were added after them.
std::vector<std::string> costFieldsOf(const std::string &line) {
    std::vector<std::string> fields = fieldsOf(line);
    fields.resize(fields.size() - 5);
    return fields;
}

TEST(CostCsv, TheCostColumnsComeAfterTheSystemColumnsWithTheRunsFigures) {
    RunSet set;
    set.addRecord(recordOn("cuda:0", {30, 12, 12}), "t4.json");
    set.addRecord(recordOn("cuda:0", {30, 2, 2}, "NVIDIA H200"), "h200.json");
    set.setCostSettings(settingsOf(shippedLikeTable()));
    const auto lines = splitLines(summaryCsv(set));
    ASSERT_EQ(lines.size(), 3U);
    const auto header = costFieldsOf(lines[0]);
    ASSERT_EQ(header.size() + 5, static_cast<std::size_t>(summaryCsvColumnCount()));
    const std::vector<std::string> last(header.end() - 9, header.end());
    EXPECT_EQ(last, (std::vector<std::string>{"cost_basis", "price_per_hour", "price_per_kwh",
                                              "currency", "cost_per_epoch", "cost_per_10_epochs",
                                              "images_per_money", "price_source", "cost_note"}));
    const auto t4 = costFieldsOf(lines[1]);
    const std::vector<std::string> t4Cost(t4.end() - 9, t4.end() - 2);
    EXPECT_EQ(t4Cost, (std::vector<std::string>{"hourly", "0.350000", "", "USD", "0.00116667",
                                                "0.01166667", "857142.9"}));
    EXPECT_EQ(t4[t4.size() - 2], "Tesla T4; a page; 2026-03-31");
    const auto h200 = costFieldsOf(lines[2]);
    EXPECT_EQ(h200[h200.size() - 9], "n/a");
    EXPECT_EQ(h200[h200.size() - 5], "n/a") << "no figure, never a guess";
    EXPECT_EQ(h200.back(), "no price for NVIDIA H200");
}

TEST(CostCsv, ATinyCostKeepsSixSignificantDigits) {
    RunSet set;
    set.addRecord(recordOn("cuda:0", {30, 12, 12}), "t4.json");
    CostSettings settings = settingsOf(shippedLikeTable());
    settings.overrides = {{"cuda", 1e-7}};
    set.setCostSettings(settings);
    const auto row = costFieldsOf(splitLines(summaryCsv(set))[1]);
    const std::vector<std::string> cost(row.end() - 9, row.end() - 2);
    EXPECT_EQ(cost, (std::vector<std::string>{"hourly", "1e-07", "", "", "3.33333e-10",
                                              "3.33333e-09", "3000000000000.0"}));
}

TEST(CostCsv, ChangingThePricesChangesTheFigures) {
    RunSet set;
    set.addRecord(recordOn("cuda:0", {30, 12, 12}), "t4.json");
    set.setCostSettings(settingsOf(shippedLikeTable()));
    EXPECT_NEAR(set.run(0).cost.perEpoch, 0.0011667, 1e-7);
    CostSettings mine = settingsOf(shippedLikeTable());
    mine.overrides = {{"cuda", 0.70}};
    set.setCostSettings(mine);
    EXPECT_NEAR(set.run(0).cost.perEpoch, 0.0023333, 1e-7);
}

} // namespace
} // namespace devicebench
