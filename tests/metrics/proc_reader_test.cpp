// SPDX-License-Identifier: MIT
// The /proc readers of the system sampler, on /proc text and on a fake /proc tree.
#include "proc_reader.h"

#include "temp_tree.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

namespace devicebench::detail {
namespace {

TEST(ProcStat, CpuTicksAreUtimePlusStimeCountedAfterTheCommandName) {
    // A command name with spaces and parentheses must not shift the fields.
    const std::string stat = "4242 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 120 30 0 0 20 0 1 0";
    EXPECT_DOUBLE_EQ(parseStatCpuTicks(stat), 150.0);
}

TEST(ProcStat, MalformedStatTextIsNotANumber) {
    EXPECT_TRUE(std::isnan(parseStatCpuTicks("")));
    EXPECT_TRUE(std::isnan(parseStatCpuTicks("12 (x) R 1 2")));
    EXPECT_TRUE(std::isnan(parseStatCpuTicks("12 (x) R 1 2 3 4 5 6 7 8 9 10 abc 4")));
}

TEST(ProcStatus, VmRssIsReadInBytes) {
    EXPECT_DOUBLE_EQ(parseVmRssBytes("Name:\tx\nVmHWM:\t  900 kB\nVmRSS:\t  512 kB\n"),
                     512.0 * 1024.0);
    EXPECT_TRUE(std::isnan(parseVmRssBytes("Name:\tkthread\n")));
    EXPECT_TRUE(std::isnan(parseVmRssBytes("VmRSS:\t12 pages\n")));
}

// A process in a fake /proc: its stat (utime, stime in ticks), VmRSS and children.
void addProcess(TempTree &proc, int pid, double utime, double stime, double rssKib,
                const std::string &children = "") {
    const std::string folder = std::to_string(pid);
    proc.write(folder + "/stat", std::to_string(pid) + " (python3) S 1 1 1 0 -1 0 0 0 0 0 " +
                                     std::to_string(static_cast<long>(utime)) + " " +
                                     std::to_string(static_cast<long>(stime)) + " 0 0 20 0 1 0");
    proc.write(folder + "/status",
               "Name:\tpython3\nVmRSS:\t" + std::to_string(static_cast<long>(rssKib)) + " kB\n");
    proc.write(folder + "/task/" + folder + "/children", children);
}

TEST(ProcessTree, ATreeSumsTheRootAndItsDescendants) {
    TempTree proc;
    addProcess(proc, 100, 100, 50, 1000, "101 ");
    addProcess(proc, 101, 200, 0, 3000, "102");
    addProcess(proc, 102, 10, 10, 24);
    addProcess(proc, 300, 999, 999, 999); // not in the tree
    const ProcessTree tree = readProcessTree(proc.path(), 100, 100.0);
    ASSERT_TRUE(tree.valid);
    EXPECT_EQ(tree.cpuSeconds.size(), 3u);
    EXPECT_DOUBLE_EQ(tree.cpuSeconds.at(100), 1.5);
    EXPECT_DOUBLE_EQ(tree.cpuSeconds.at(101), 2.0);
    EXPECT_DOUBLE_EQ(tree.rssBytes, 4024.0 * 1024.0);
}

TEST(ProcStatus, PssIsReadInBytesFromSmapsRollup) {
    const std::string rollup = "55d0c0a00000-7ffd4d3fe000 ---p 00000000 00:00 0  [rollup]\n"
                               "Rss:             1024 kB\nPss:              300 kB\n"
                               "Pss_Anon:         200 kB\n";
    EXPECT_DOUBLE_EQ(parsePssBytes(rollup), 300.0 * 1024.0) << "not Pss_Anon, not Rss";
    EXPECT_TRUE(std::isnan(parsePssBytes("")));
}

// Forked workers share their parent's pages: their VmRSS counts those pages again in each,
// their Pss only once over all of them.
TEST(ProcessTree, SharedPagesCountOnceWhenEveryProcessHasItsPss) {
    TempTree proc;
    addProcess(proc, 100, 1, 1, 1000, "101 102");
    addProcess(proc, 101, 1, 1, 1000);
    addProcess(proc, 102, 1, 1, 1000);
    for (const auto &[pid, pssKib] :
         {std::pair{100, 600}, std::pair{101, 250}, std::pair{102, 250}})
        proc.write(std::to_string(pid) + "/smaps_rollup",
                   "Rss:  1000 kB\nPss:  " + std::to_string(pssKib) + " kB\n");
    ProcessTree tree = readProcessTree(proc.path(), 100, 100.0);
    EXPECT_TRUE(tree.proportional);
    EXPECT_DOUBLE_EQ(tree.rssBytes, 1100.0 * 1024.0) << "not 3 x 1000 kB";
    // One process whose smaps_rollup cannot be read (another user's): the VmRSS sum, said so.
    proc.write("102/smaps_rollup", "");
    tree = readProcessTree(proc.path(), 100, 100.0);
    EXPECT_FALSE(tree.proportional);
    EXPECT_DOUBLE_EQ(tree.rssBytes, 3000.0 * 1024.0);
}

TEST(ProcessTree, AGoneRootIsInvalid) {
    TempTree proc;
    EXPECT_FALSE(readProcessTree(proc.path(), 100, 100.0).valid);
}

TEST(ProcessTree, BusyCoresAreTheGrowthOfEveryProcessOverTheWallTime) {
    ProcessTree before;
    before.valid = true;
    before.cpuSeconds = {{1, 10.0}, {2, 5.0}, {3, 1.0}};
    ProcessTree now;
    now.valid = true;
    // 1 grew by 0.5 s, 2 by 0.25 s, 3 ended (drops out), 4 is new (its whole 0.25 s counts).
    now.cpuSeconds = {{1, 10.5}, {2, 5.25}, {4, 0.25}};
    EXPECT_DOUBLE_EQ(busyCores(before, now, 0.5), 2.0);
    EXPECT_TRUE(std::isnan(busyCores(before, now, 0.0)));
    EXPECT_TRUE(std::isnan(busyCores(ProcessTree{}, now, 0.5)));
}

} // namespace
} // namespace devicebench::detail
