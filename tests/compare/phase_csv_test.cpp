// SPDX-License-Identifier: MIT
// Where the time goes in the CSVs: each epoch's phase seconds, each run's phase
// fractions over its phase-timed stable epochs, and empty / "n/a" cells for normal runs.
#include "devicebench/csv_export.h"
#include "devicebench/run_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace devicebench {
namespace {

std::vector<std::vector<std::string>> rowsOf(const std::string &csv) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
        rows.emplace_back(1);
        for (const char ch : line) { // no quoted cells in these tables' numbers
            if (ch == ',')
                rows.back().emplace_back();
            else
                rows.back().back() += ch;
        }
    }
    return rows;
}

std::size_t column(const std::vector<std::string> &header, const std::string &name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
}

// Three epochs (the first warm-up); with `phases`, each epoch's phases are its seconds split
// 10/20/5/40/15/10 %, but epoch 2's split is 20/20/5/30/15/10 %.
RunRecord record(const std::string &host, bool phases) {
    RunRecord r;
    r.runId = host;
    r.config.epochs = 3;
    r.config.warmupEpochs = 1;
    r.config.phases = phases;
    r.started.device = "cpu";
    r.started.threads = 1;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.fingerprint.hostName = host;
    r.data = {"", "synthetic", 900, 100, ""};
    for (int i = 1; i <= 3; ++i) {
        EpochResult e;
        e.epoch = i;
        e.seconds = 2.0;
        e.testAccuracy = 0.1;
        if (phases) {
            e.phases = {true, 0.2, 0.4, 0.1, 0.8, 0.3, 0.2};
            if (i == 2)
                e.phases = {true, 0.4, 0.4, 0.1, 0.6, 0.3, 0.2};
        }
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

TEST(PhaseCsv, EachEpochHasItsPhaseSecondsAndANormalRunLeavesThemEmpty) {
    RunSet set;
    set.addRecord(record("timed", true), "timed");
    set.addRecord(record("normal", false), "normal");
    const auto rows = rowsOf(epochCsv(set));
    ASSERT_EQ(rows.size(), 7U) << "header + 3 + 3";
    const auto &header = rows[0];
    ASSERT_EQ(header.size(), static_cast<std::size_t>(epochCsvColumnCount()));
    EXPECT_EQ(rows[2][column(header, "phase_data_s")], "0.400000");
    EXPECT_EQ(rows[2][column(header, "phase_forward_s")], "0.400000");
    EXPECT_EQ(rows[2][column(header, "phase_loss_s")], "0.100000");
    EXPECT_EQ(rows[2][column(header, "phase_backward_s")], "0.600000");
    EXPECT_EQ(rows[2][column(header, "phase_optimizer_s")], "0.300000");
    EXPECT_EQ(rows[2][column(header, "phase_test_s")], "0.200000");
    for (const char *name : {"phase_data_s", "phase_forward_s", "phase_loss_s", "phase_backward_s",
                             "phase_optimizer_s", "phase_test_s"}) {
        ASSERT_EQ(rows[4].size(), header.size());
        EXPECT_EQ(rows[4][column(header, name)], "") << name << ": not measured, not 0";
    }
}

TEST(PhaseCsv, SummaryGivesEachPhasesFractionOfTheStableEpochsAndNaForANormalRun) {
    RunSet set;
    set.addRecord(record("timed", true), "timed");
    set.addRecord(record("normal", false), "normal");
    const auto rows = rowsOf(summaryCsv(set));
    ASSERT_EQ(rows.size(), 3U);
    const auto &header = rows[0];
    ASSERT_EQ(header.size(), static_cast<std::size_t>(summaryCsvColumnCount()));
    ASSERT_EQ(rows[1].size(), header.size());
    // Stable epochs 2 and 3 (4 s): data 0.6 s, forward 0.8, loss 0.2, backward 1.4,
    // optimizer 0.6, test 0.4; the warm-up epoch is left out.
    EXPECT_EQ(rows[1][column(header, "phase_data_fraction")], "0.1500");
    EXPECT_EQ(rows[1][column(header, "phase_forward_fraction")], "0.2000");
    EXPECT_EQ(rows[1][column(header, "phase_loss_fraction")], "0.0500");
    EXPECT_EQ(rows[1][column(header, "phase_backward_fraction")], "0.3500");
    EXPECT_EQ(rows[1][column(header, "phase_optimizer_fraction")], "0.1500");
    EXPECT_EQ(rows[1][column(header, "phase_test_fraction")], "0.1000");
    EXPECT_EQ(rows[2][column(header, "phase_data_fraction")], "n/a");
    EXPECT_EQ(rows[2][column(header, "phase_test_fraction")], "n/a");

    set.setWarmupEpochs(2); // only epoch 3 is stable now: its own split
    const auto later = rowsOf(summaryCsv(set));
    EXPECT_EQ(later[1][column(header, "phase_data_fraction")], "0.1000");
}

TEST(PhaseCsv, APhaseTimedRunIsLabelledSo) {
    RunSet set;
    set.addRecord(record("timed", true), "timed");
    set.addRecord(record("normal", false), "normal");
    EXPECT_NE(set.run(0).label.find("phase-timed"), std::string::npos) << set.run(0).label;
    EXPECT_EQ(set.run(1).label.find("phase-timed"), std::string::npos) << set.run(1).label;
    set.setBaseline(set.run(1).id);
    EXPECT_EQ(set.run(1).differences, std::vector<std::string>{}) << "the baseline";
    EXPECT_EQ(set.run(0).differences, std::vector<std::string>{"phase timing"});
}

} // namespace
} // namespace devicebench
