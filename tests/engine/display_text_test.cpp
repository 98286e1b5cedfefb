// SPDX-License-Identifier: MIT
// Text from another machine (display_text.h): controls and bidirectional formatting characters
// shown, never obeyed; right-to-left text isolated; a record read from disk, its label and its
// CSVs cannot be reordered by a host name that holds a right-to-left override.
#include "devicebench/comparison.h"
#include "devicebench/csv_export.h"
#include "devicebench/display_text.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"

#include "record_builder.h"

#include <gtest/gtest.h>

#include <string>

namespace devicebench {
namespace {

const std::string kOverride = "\u202E"; // RIGHT-TO-LEFT OVERRIDE
const std::string kHebrewHost = "\u05E9\u05E8\u05EA-1";

TEST(DisplayText, ControlsAndBidirectionalFormattingAreShownNotObeyed) {
    EXPECT_EQ(visibleText("a\x1b[2J" + kOverride + "b\u2066c\u200Fd\u0085e\tf\x7f"),
              "a[U+001B][2J[U+202E]b[U+2066]c[U+200F]d[U+0085]e[U+0009]f[U+007F]");
    const std::string ordinary = "my host \u2013 \u00dcn\u00efc\u00f8d\u00e9 \u2713 \u65e5\u672c";
    EXPECT_EQ(visibleText(ordinary), ordinary) << "ordinary text, spaces included, is kept";
    EXPECT_EQ(visibleText("\xff\xfe"), "\xff\xfe") << "bytes that are no character are kept";
    EXPECT_EQ(visibleText("ab\u00e9cd", 3), "ab...") << "never half a character";
}

TEST(DisplayText, RightToLeftTextIsIsolatedAndOtherTextIsLeftAlone) {
    EXPECT_EQ(displayText(kHebrewHost), "\u2068" + kHebrewHost + "\u2069");
    EXPECT_EQ(displayText("vm-1"), "vm-1");
    EXPECT_EQ(displayText("vm" + kOverride), "vm[U+202E]");
}

TEST(DisplayText, ARecordsHostWithAnOverrideCannotReorderItsLabelOrItsCsvs) {
    RunRecord record = testing::finishedCpuRun("evil", {2.0, 1.0, 1.1});
    record.fingerprint.hostName = "evil" + kOverride + " 1.23 s";
    record.config.scriptArgs = {"--tag=" + kOverride + "x"};
    const RunRecord read = parseRunRecord(toJson(record), "evil.json");
    EXPECT_EQ(read.fingerprint.hostName, "evil[U+202E] 1.23 s");
    EXPECT_EQ(read.config.scriptArgs.at(0), "--tag=[U+202E]x");
    EXPECT_EQ(runLabel(read), "CPU x1 @ evil[U+202E] 1.23 s [synthetic]");

    RunRecord rtl = testing::finishedCpuRun("rtl", {2.0, 1.0, 1.1});
    rtl.fingerprint.hostName = kHebrewHost;
    rtl.started.threads = 2;
    RunSet runs;
    runs.addRecord(read, "evil.json");
    runs.addRecord(parseRunRecord(toJson(rtl), "rtl.json"), "rtl.json");
    EXPECT_EQ(runLabel(runs.run(1).record), "CPU x2 @ \u2068" + kHebrewHost + "\u2069 [synthetic]");
    for (const std::string &csv : {summaryCsv(runs), groupsCsv(runs)}) {
        EXPECT_EQ(csv.find(kOverride), std::string::npos) << csv;
        EXPECT_NE(csv.find("[U+202E]"), std::string::npos) << csv;
    }
}

} // namespace
} // namespace devicebench
