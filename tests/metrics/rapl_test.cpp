// SPDX-License-Identifier: MIT
// The CPU packages' energy from a fake powercap tree: which zones count, wrap-arounds, and
// counters that cannot be read.
#include "rapl.h"

#include "temp_tree.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace devicebench::detail {
namespace {

// A package zone (and, optionally, a sub-zone that must not be added to it).
void addZone(const TempTree &powercap, const std::string &zone, const std::string &name,
             long microjoules, long maxRange = 262143328850L) {
    powercap.write(zone + "/name", name + "\n");
    powercap.write(zone + "/energy_uj", std::to_string(microjoules) + "\n");
    powercap.write(zone + "/max_energy_range_uj", std::to_string(maxRange) + "\n");
}

TEST(RaplCounters, NoPowercapFolderSaysSoAndWhere) {
    std::string why;
    EXPECT_EQ(RaplCounters::open("/nonexistent/powercap", &why), nullptr);
    EXPECT_EQ(why, "no RAPL counters (/nonexistent/powercap absent)");
}

TEST(RaplCounters, APowercapFolderWithoutRaplZonesSaysSo) {
    TempTree powercap;
    powercap.write("dtpm/name", "dtpm\n");
    std::string why;
    EXPECT_EQ(RaplCounters::open(powercap.path(), &why), nullptr);
    EXPECT_EQ(why, "no RAPL counters (no intel-rapl zone in " + powercap.path() + ")");
}

TEST(RaplCounters, PackagesAreAddedAndTheirSubZonesAreNot) {
    TempTree powercap;
    addZone(powercap, "intel-rapl:0", "package-0", 1000000);
    addZone(powercap, "intel-rapl:1", "package-1", 5000000);
    addZone(powercap, "intel-rapl:0:0", "core", 0); // part of package-0
    std::string why;
    auto rapl = RaplCounters::open(powercap.path(), &why);
    ASSERT_NE(rapl, nullptr) << why;
    EXPECT_EQ(rapl->zones(), "package-0, package-1");
    std::vector<std::string> notes;
    EXPECT_DOUBLE_EQ(rapl->read(&notes), 0.0);
    powercap.write("intel-rapl:0/energy_uj", "3000000\n");   // +2 J
    powercap.write("intel-rapl:1/energy_uj", "5500000\n");   // +0.5 J
    powercap.write("intel-rapl:0:0/energy_uj", "9000000\n"); // not counted
    EXPECT_DOUBLE_EQ(rapl->read(&notes), 2.5);
    EXPECT_TRUE(notes.empty());
}

TEST(RaplCounters, ACounterThatWrappedAroundIsUndone) {
    TempTree powercap;
    // 1 J below the top of a 100 J range, then 2 J past 0: 3 J in all.
    addZone(powercap, "intel-rapl:0", "package-0", 99000000, 100000000);
    std::string why;
    auto rapl = RaplCounters::open(powercap.path(), &why);
    ASSERT_NE(rapl, nullptr) << why;
    std::vector<std::string> notes;
    rapl->read(&notes);
    powercap.write("intel-rapl:0/energy_uj", "2000000\n");
    EXPECT_DOUBLE_EQ(rapl->read(&notes), 3.0);
    powercap.write("intel-rapl:0/energy_uj", "4000000\n");
    EXPECT_DOUBLE_EQ(rapl->read(&notes), 5.0);
    EXPECT_TRUE(notes.empty());
}

TEST(RaplCounters, ACounterThatCannotBeReadAtOpenNamesTheFile) {
    TempTree powercap;
    powercap.write("intel-rapl:0/name", "package-0\n");
    std::filesystem::create_directories(powercap.file("intel-rapl:0/energy_uj")); // not a file
    std::string why;
    EXPECT_EQ(RaplCounters::open(powercap.path(), &why), nullptr);
    EXPECT_NE(why.find("RAPL counter unreadable: " + powercap.file("intel-rapl:0/energy_uj")),
              std::string::npos)
        << why;
}

TEST(RaplCounters, ACounterOnlyRootMayReadSaysHowToAllowIt) {
    if (geteuid() == 0)
        GTEST_SKIP() << "root reads every file: run as another user to see the permission case";
    TempTree powercap;
    addZone(powercap, "intel-rapl:0", "package-0", 1000);
    std::filesystem::permissions(powercap.file("intel-rapl:0/energy_uj"),
                                 std::filesystem::perms::owner_write);
    std::string why;
    EXPECT_EQ(RaplCounters::open(powercap.path(), &why), nullptr);
    EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
    EXPECT_NE(why.find("readable by root only since Linux 5.10"), std::string::npos) << why;
    EXPECT_NE(why.find("chmod o+r"), std::string::npos) << why;
}

TEST(RaplCounters, ACounterThatDisappearsEndsWithOneNote) {
    TempTree powercap;
    addZone(powercap, "intel-rapl:0", "package-0", 1000000);
    std::string why;
    auto rapl = RaplCounters::open(powercap.path(), &why);
    ASSERT_NE(rapl, nullptr) << why;
    std::vector<std::string> notes;
    EXPECT_DOUBLE_EQ(rapl->read(&notes), 0.0);
    std::filesystem::remove(powercap.file("intel-rapl:0/energy_uj"));
    EXPECT_TRUE(std::isnan(rapl->read(&notes)));
    powercap.write("intel-rapl:0/energy_uj", "2000000\n"); // back: still not read again
    EXPECT_TRUE(std::isnan(rapl->read(&notes)));
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].rfind("cpu energy: " + powercap.file("intel-rapl:0/energy_uj"), 0), 0u)
        << notes[0];
    EXPECT_NE(notes[0].find("no longer read"), std::string::npos);
}

} // namespace
} // namespace devicebench::detail
