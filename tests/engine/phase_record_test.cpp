// SPDX-License-Identifier: MIT
// Phase timing in the run record (docs/run-record.md, config.phases and
// epochs[i].phases): written, read back exactly, optional for older records, and checked.
#include "devicebench/phase_summary.h"
#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <string>

using namespace devicebench;

namespace {

// A record written before phase timing existed (docs/examples).
const std::string kOlderRecord = std::string(DEVICEBENCH_EXAMPLES_DIR) + "/cpu-1-thread.json";

// The older record made phase-timed: each epoch's phases add up to its seconds.
RunRecord phaseTimedRecord() {
    RunRecord r = readRunRecord(kOlderRecord);
    r.config.phases = true;
    for (EpochResult &e : r.epochs) {
        const double s = e.seconds;
        e.phases = {true, 0.04 * s, 0.31 * s, 0.01 * s, 0.52 * s, 0.06 * s, 0.06 * s};
    }
    return r;
}

std::string messageOf(const std::string &json) {
    try {
        parseRunRecord(json, "run.json");
    } catch (const RecordError &e) {
        return e.what();
    }
    return "(accepted)";
}

// `json` with the first `from` replaced by `to` (the test fails when there is none).
std::string replaced(std::string json, const std::string &from, const std::string &to) {
    const auto at = json.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        json.replace(at, from.size(), to);
    return json;
}

} // namespace

TEST(PhaseRecord, RoundTripKeepsPhaseTimingAndEveryEpochsPhasesExactly) {
    const RunRecord written = phaseTimedRecord();
    const RunRecord read = parseRunRecord(toJson(written), "run.json");
    EXPECT_TRUE(read.config.phases);
    ASSERT_EQ(read.epochs.size(), written.epochs.size());
    for (std::size_t i = 0; i < read.epochs.size(); ++i) {
        EXPECT_TRUE(read.epochs[i].phases.measured) << "epoch " << i + 1;
        for (const PhaseField &f : phaseFields())
            EXPECT_EQ(read.epochs[i].phases.*f.seconds, written.epochs[i].phases.*f.seconds)
                << "epoch " << i + 1 << " " << f.name;
    }
    EXPECT_NE(toJson(written).find("\"optimizer\": "), std::string::npos);
}

TEST(PhaseRecord, OlderRecordWithoutThemReadsAsNotPhaseTimed) {
    const RunRecord r = readRunRecord(kOlderRecord);
    EXPECT_FALSE(r.config.phases);
    ASSERT_FALSE(r.epochs.empty());
    for (const EpochResult &e : r.epochs)
        EXPECT_FALSE(e.phases.measured) << "epoch " << e.epoch;
}

TEST(PhaseRecord, NormalRunWritesPhasesFalseAndNoPhaseObject) {
    const std::string json = toJson(readRunRecord(kOlderRecord));
    EXPECT_NE(json.find("\"phases\": false"), std::string::npos);
    EXPECT_EQ(json.find("\"phases\": {"), std::string::npos);
}

TEST(PhaseRecord, BadPhaseTimesAreRefusedNamingTheField) {
    const std::string json = toJson(phaseTimedRecord());
    const std::string forward = "\"forward\": ";
    const auto at = json.find(forward);
    ASSERT_NE(at, std::string::npos);
    const std::string value = json.substr(at, json.find(',', at) - at);
    EXPECT_EQ(messageOf(replaced(json, value, forward + "-1")),
              "run.json: field 'epochs[0].phases.forward' must be 0 or more (got -1): a "
              "phase's seconds");
    EXPECT_EQ(messageOf(replaced(json, value, forward + "null")),
              "run.json: field 'epochs[0].phases.forward' must be a finite number");
    EXPECT_EQ(messageOf(replaced(json, value, "\"other\": 1")),
              "run.json: field 'epochs[0].phases.forward' is missing");
    EXPECT_EQ(messageOf(replaced(json, "\"phases\": {", "\"phases\": [], \"x\": {")),
              "run.json: field 'epochs[0].phases' must be an object");
}

TEST(PhaseRecord, PhasesThatDoNotMatchConfigPhasesAreRefused) {
    const std::string json = toJson(phaseTimedRecord());
    EXPECT_EQ(messageOf(replaced(json, "\"phases\": true", "\"phases\": false")),
              "run.json: field 'epochs[0].phases' is present, but config.phases says the run "
              "was not phase-timed");
    RunRecord missing = phaseTimedRecord();
    missing.epochs[2].phases = PhaseTimes{};
    EXPECT_EQ(messageOf(toJson(missing)),
              "run.json: field 'epochs[2].phases' is missing: config.phases says the run was "
              "phase-timed");
}

TEST(PhaseRecord, CheckRefusesAPhaseThatIsNotFinite) {
    RunRecord r = phaseTimedRecord();
    r.epochs[1].phases.test = std::numeric_limits<double>::infinity();
    try {
        checkRunRecord(r, "run.json");
        ADD_FAILURE() << "accepted";
    } catch (const RecordError &e) {
        EXPECT_EQ(std::string(e.what()), "run.json: field 'epochs[1].phases.test' must be a "
                                         "finite number of seconds, 0 or more (got inf)");
    }
}
