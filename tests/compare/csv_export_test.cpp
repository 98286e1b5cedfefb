// SPDX-License-Identifier: MIT
// The engine's CSV writers: columns, cell formats whatever the locale, RFC 4180 quoting, and
// atomic files (complete or absent, errors naming the path and the OS error).
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/csv_export.h"
#include "devicebench/run_set.h"

#include "csv_lines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::namesIn;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;

namespace devicebench {
namespace {

using testing::fieldsOf;
using testing::splitLines;

RunRecord recordOf(const std::string &host, const std::vector<double> &seconds, int batch = 64) {
    RunRecord r;
    r.runId = host + std::to_string(batch);
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = 1;
    r.config.batchSize = batch;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 2;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.fingerprint.hostName = host;
    r.fingerprint.cpuModel = "Intel(R) Xeon(R) CPU @ 2.20GHz";
    r.fingerprint.gpus.push_back(GpuInfo{0, "Tesla T4", 7, 5, 16LL << 30});
    r.data = {"/data", "cifar-10-binary", 900, 100, "0123456789abcdef"};
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = seconds[i];
        e.trainLoss = 2.302585093;
        e.testLoss = 1.5 + 0.1 * static_cast<double>(i);
        e.testAccuracy = 0.1234567;
        e.imagesPerSecond = 1000.0 / seconds[i];
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

TEST(CsvField, QuotesOnlyWhatNeedsItDoublingQuotes) {
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
    EXPECT_EQ(csvField(""), "");
}

TEST(CsvField, TextThatASpreadsheetWouldRunAsAFormulaGetsALeadingQuote) {
    // OWASP "CSV Injection": = + - @ TAB CR at the start of a text cell.
    EXPECT_EQ(csvField("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
    EXPECT_EQ(csvField("+1+cmd|' /C calc'!A0"), "'+1+cmd|' /C calc'!A0");
    EXPECT_EQ(csvField("-2+3"), "'-2+3");
    EXPECT_EQ(csvField("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvField("\t=1"), "'\t=1");
    EXPECT_EQ(csvField("\r=1"), "\"'\r=1\"");
    EXPECT_EQ(csvField("a=b"), "a=b") << "only the first character matters";
}

TEST(CsvField, NumbersStayNumbersNegativeOnesIncluded) {
    for (const char *n : {"-1.5", "-3", "+2", "1e-05", "-2.5E+3", "nan", "inf", "-inf", "0.0000"})
        EXPECT_EQ(csvField(n), n) << n;
    EXPECT_FALSE(isCsvNumber("-"));
    EXPECT_FALSE(isCsvNumber("-1e"));
    EXPECT_FALSE(isCsvNumber("-1-1"));
    EXPECT_FALSE(isCsvNumber("-.e1"));
}

TEST(SummaryCsv, HostAndCpuModelFromAnImportedRecordCannotRunAsFormulas) {
    RunRecord hostile = recordOf("=cmd|' /C calc'!A0", {2.0, 1.0, 1.0});
    hostile.fingerprint.cpuModel = "@SUM(1+1)*cmd|' /C calc'!A0";
    hostile.fingerprint.os = "-2+3";
    RunSet set;
    set.addRecord(hostile, "hostile.json");
    const std::vector<std::string> lines = splitLines(summaryCsv(set));
    ASSERT_EQ(lines.size(), 2U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    const std::vector<std::string> row = fieldsOf(lines[1]);
    ASSERT_EQ(row.size(), header.size());
    for (std::size_t i = 0; i < row.size(); ++i) {
        const std::string &cell = row[i];
        if (!cell.empty() && std::string("=+-@\t\r").find(cell[0]) != std::string::npos) {
            EXPECT_TRUE(isCsvNumber(cell)) << header[i] << " = " << cell;
        }
    }
    const auto col = [&header](const std::string &name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) -
                                        header.begin());
    };
    EXPECT_EQ(row[col("host")], "'=cmd|' /C calc'!A0");
    EXPECT_EQ(row[col("cpu_model")], "'@SUM(1+1)*cmd|' /C calc'!A0");
    EXPECT_EQ(row[col("os")], "'-2+3");
    const std::vector<std::string> epoch = fieldsOf(splitLines(epochCsv(set))[1]);
    EXPECT_EQ(epoch[12], "'=cmd|' /C calc'!A0") << "the host column of the per-epoch CSV";
}

TEST(EpochCsv, OneLinePerRunAndEpochWithTheDocumentedFormats) {
    RunSet set;
    set.addRecord(recordOf("host, a", {3.0, 2.0}), "a");
    RunRecord diverged = recordOf("b", {1.5}, 32);
    diverged.epochs[0].trainLoss = std::numeric_limits<double>::quiet_NaN();
    diverged.epochs[0].testLoss = std::numeric_limits<double>::infinity();
    diverged.status = "diverged";
    set.addRecord(diverged, "b");
    const std::vector<std::string> lines = splitLines(epochCsv(set));
    ASSERT_EQ(lines.size(), 4U) << "header + 2 + 1";
    // The header, and every cell of a set that fills them all: CsvColumns.*.
    const std::vector<std::string> first = fieldsOf(lines[1]);
    ASSERT_EQ(first.size(), static_cast<std::size_t>(epochCsvColumnCount()));
    EXPECT_EQ(first[0], set.run(0).label);
    EXPECT_EQ(first[1], "cpu");
    EXPECT_EQ(first[2], "2");
    EXPECT_EQ(first[3], "1");
    EXPECT_EQ(first[4], "3.0000");
    EXPECT_EQ(first[5], "1") << "warm-up under the run's own setting";
    EXPECT_EQ(first[6], "2.302585");
    EXPECT_EQ(first[8], "0.123457") << "a fraction, 6 decimals";
    EXPECT_EQ(first[9], "333.33");
    EXPECT_EQ(first[10], "cifar-10");
    EXPECT_EQ(first[11], "finished");
    EXPECT_EQ(first[12], "host, a");
    EXPECT_EQ(first[13], "1");
    EXPECT_NE(lines[1].find("\"host, a\""), std::string::npos) << "quoted: " << lines[1];
    const std::vector<std::string> third = fieldsOf(lines[3]);
    EXPECT_EQ(third[6], "nan");
    EXPECT_EQ(third[7], "inf");
    EXPECT_EQ(third[11], "diverged");
    EXPECT_EQ(third[13], "0");
    EXPECT_EQ(third[14], "batch size;epochs");

    set.setWarmupEpochs(0); // the set's setting, not the recorded flag
    EXPECT_EQ(fieldsOf(splitLines(epochCsv(set))[1])[5], "0");
}

TEST(EpochCsv, NumbersUseADecimalPointWhateverTheLocale) {
    const std::string before = std::setlocale(LC_ALL, nullptr);
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") == nullptr &&
        std::setlocale(LC_ALL, "fr_FR.UTF-8") == nullptr) {
        GTEST_SKIP() << "no de_DE.UTF-8 or fr_FR.UTF-8 locale installed";
    }
    RunSet set;
    set.addRecord(recordOf("h", {3.25, 2.5}), "a");
    const std::string csv = epochCsv(set);
    const std::string summary = summaryCsv(set);
    std::setlocale(LC_ALL, before.c_str());
    EXPECT_NE(csv.find(",3.2500,"), std::string::npos) << csv;
    EXPECT_NE(summary.find(",2.5000,"), std::string::npos) << summary;
}

TEST(SummaryCsv, OneRowPerRunWithTheBaselineAndEmptyControlForIt) {
    RunSet set;
    set.addRecord(recordOf("slow", {9.0, 8.0, 10.0, 12.0}), "slow");
    set.addRecord(recordOf("fast", {9.0, 4.0, 5.0, 6.0}), "fast");
    set.addRecord(recordOf("one", {9.0}), "no stable epoch");
    const std::vector<std::string> lines = splitLines(summaryCsv(set));
    ASSERT_EQ(lines.size(), 4U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    ASSERT_EQ(header.size(), static_cast<std::size_t>(summaryCsvColumnCount()));
    const auto col = [&header](const std::string &name) {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << name;
        return static_cast<std::size_t>(it - header.begin());
    };
    const std::vector<std::string> slow = fieldsOf(lines[1]);
    const std::vector<std::string> fast = fieldsOf(lines[2]);
    const std::vector<std::string> none = fieldsOf(lines[3]);
    ASSERT_EQ(slow.size(), header.size());
    EXPECT_EQ(slow[col("baseline")], set.run(0).label);
    EXPECT_EQ(fast[col("baseline")], set.run(0).label);
    EXPECT_EQ(slow[col("max_test_loss_diff")], "") << "the baseline against itself";
    EXPECT_EQ(fast[col("max_test_loss_diff")], "0.000000");
    EXPECT_EQ(slow[col("speedup")], "1.0000");
    std::ostringstream ratio;
    ratio.setf(std::ios::fixed);
    ratio.precision(4);
    ratio << set.run(1).speedUp.ratio;
    EXPECT_EQ(fast[col("speedup")], ratio.str());
    EXPECT_EQ(none[col("stable_mean_s")], "nan");
    EXPECT_EQ(none[col("speedup")], "nan");
    EXPECT_EQ(none[col("mean_all_s")], "9.0000");
    EXPECT_EQ(fast[col("gpu_name")], "Tesla T4") << "a CPU run lists the machine's GPUs";
    EXPECT_EQ(fast[col("gpu_cc")], "7.5");
    EXPECT_EQ(fast[col("cpu_model")], "Intel(R) Xeon(R) CPU @ 2.20GHz");
    EXPECT_EQ(fast[col("status")], "finished");
}

TEST(SummaryCsv, StandardDeviationAndCvOfFewerThanTwoStableEpochsReadNA) {
    RunSet set;
    set.addRecord(recordOf("one", {9.0, 4.0}), "one stable epoch");
    set.addRecord(recordOf("two", {9.0, 4.0, 6.0}), "two stable epochs");
    const std::vector<std::string> lines = splitLines(summaryCsv(set));
    ASSERT_EQ(lines.size(), 3U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    const auto col = [&header](const std::string &name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) -
                                        header.begin());
    };
    const std::vector<std::string> one = fieldsOf(lines[1]);
    const std::vector<std::string> two = fieldsOf(lines[2]);
    EXPECT_EQ(one[col("stddev_s")], "n/a");
    EXPECT_EQ(one[col("cv")], "n/a");
    EXPECT_EQ(one[col("stable_mean_s")], "4.0000");
    EXPECT_EQ(one[col("ci95_low_s")], "n/a") << "no interval of one epoch either";
    EXPECT_EQ(one[col("ci95_high_s")], "n/a");
    EXPECT_EQ(one[col("speedup_low")], "n/a") << "one side has one stable epoch";
    EXPECT_EQ(one[col("speedup_high")], "n/a");
    EXPECT_NE(two[col("ci95_low_s")], "n/a");
    EXPECT_EQ(two[col("stddev_s")], "1.4142");
    EXPECT_EQ(two[col("cv")], "0.282843");
}

TEST(EpochCsv, NamesTheModelItsImageSizeAndParametersOfEachRun) {
    RunSet set;
    RunRecord resnet = recordOf("r", {3.0, 2.0});
    resnet.model = resnet.config.model = "resnet18";
    resnet.config.imageSize = 64;
    resnet.started.modelParameters = 11173962;
    set.addRecord(resnet, "resnet");
    set.addRecord(recordOf("old", {3.0, 2.0}), "older record: parameters unknown");
    const std::vector<std::string> lines = splitLines(epochCsv(set));
    ASSERT_EQ(lines.size(), 5U);
    const std::vector<std::string> first = fieldsOf(lines[1]);
    ASSERT_EQ(first.size(), static_cast<std::size_t>(epochCsvColumnCount()));
    const std::vector<std::string> header = fieldsOf(lines[0]);
    const auto at = std::find(header.begin(), header.end(), "model") - header.begin();
    ASSERT_LE(static_cast<std::size_t>(at) + 3, header.size());
    const std::vector<std::string> model(first.begin() + at, first.begin() + at + 3);
    EXPECT_EQ(model, (std::vector<std::string>{"resnet18", "64", "11173962"}));
    const std::vector<std::string> old = fieldsOf(lines[3]);
    EXPECT_EQ(std::vector<std::string>(old.begin() + at, old.begin() + at + 3),
              (std::vector<std::string>{"small-cnn", "32", ""}));
}

TEST(SummaryCsv, AchievedGflopsFollowTheDocumentedFormulaAndReadNAWhenUnknown) {
    RunSet set;
    RunRecord known = recordOf("known", {9.0, 4.0, 6.0}); // stable mean 5 s
    known.started.modelParameters = 145578;
    known.started.multiplyAddsPerImage = 12354176;
    set.addRecord(known, "known");
    set.addRecord(recordOf("unknown", {9.0, 4.0, 6.0}), "multiply-adds unknown");
    const std::vector<std::string> lines = splitLines(summaryCsv(set));
    ASSERT_EQ(lines.size(), 3U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    ASSERT_EQ(header.size(), static_cast<std::size_t>(summaryCsvColumnCount()));
    const auto at =
        static_cast<std::size_t>(std::find(header.begin(), header.end(), "model") - header.begin());
    ASSERT_LE(at + 4, header.size());
    EXPECT_EQ(std::vector<std::string>(header.begin() + static_cast<std::ptrdiff_t>(at),
                                       header.begin() + static_cast<std::ptrdiff_t>(at) + 4),
              (std::vector<std::string>{"model", "image_size", "parameters", "achieved_gflops"}));
    // (900 training x 6 + 100 test x 2) x 12,354,176 multiply-adds / 5 s / 1e9 = 13.8367 GFLOP/s
    const std::vector<std::string> row = fieldsOf(lines[1]);
    EXPECT_EQ(row[at + 3], "13.84");
    EXPECT_EQ(row[at + 2], "145578");
    EXPECT_EQ(fieldsOf(lines[2])[at + 3], "n/a");
}

TEST(SummaryCsvPath, GoesBesideThePerEpochFile) {
    EXPECT_EQ(summaryCsvPath("x/out.csv"), "x/out-summary.csv");
    EXPECT_EQ(summaryCsvPath("x/OUT.CSV"), "x/OUT-summary.csv");
    EXPECT_EQ(summaryCsvPath("x/out"), "x/out-summary.csv");
    EXPECT_EQ(summaryCsvPath("csv"), "csv-summary.csv");
}

TEST(ComparisonCsvPaths, NamesTheEpochRunAndGroupFilesInTheOrderTheyAreWritten) {
    const std::vector<std::string> paths = comparisonCsvPaths("x/out.csv");
    EXPECT_EQ(paths,
              (std::vector<std::string>{"x/out.csv", "x/out-summary.csv", "x/out-groups.csv"}));
    EXPECT_EQ(listedPaths(paths), "x/out.csv, x/out-summary.csv and x/out-groups.csv");
    EXPECT_EQ(listedPaths({"a", "b"}), "a and b");
    EXPECT_EQ(listedPaths({"a"}), "a");
    EXPECT_EQ(listedPaths({}), "");
}

TEST(WriteExportFile, WritesTheWholeFileReadableByAllAndLeavesNoTemporaryFile) {
    TempDir dir;
    const fs::path path = dir.path() / "t.csv";
    std::ofstream(path) << "old";
    writeExportFile(path.string(), "a,b\n1,2\n");
    EXPECT_EQ(slurp(path), "a,b\n1,2\n");
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"t.csv"});
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0644U);
}

TEST(WriteExportFile, AFailureNamesThePathAndTheOsErrorAndLeavesNothing) {
    TempDir dir;
    const std::string missing = (dir.path() / "no-such-folder" / "t.csv").string();
    try {
        writeExportFile(missing, "x");
        FAIL() << "no error";
    } catch (const ExportError &e) {
        EXPECT_EQ(std::string(e.what()), "Cannot write " + missing + ": No such file or directory");
    }
    std::ofstream(dir.path() / "a-file") << "x";
    const std::string underAFile = (dir.path() / "a-file" / "t.csv").string();
    EXPECT_THROW(writeExportFile(underAFile, "x"), ExportError);
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"a-file"});
}

TEST(WriteExportFile, WritesThroughASymbolicLinkAndKeepsTheLink) {
    TempDir dir;
    std::ofstream(dir.path() / "target.csv") << "old";
    fs::create_symlink("target.csv", dir.path() / "link.csv");
    writeExportFile((dir.path() / "link.csv").string(), "new");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir.path() / "link.csv")));
    EXPECT_EQ(slurp(dir.path() / "target.csv"), "new");
    fs::create_symlink("made.csv", dir.path() / "dangling.csv");
    writeExportFile((dir.path() / "dangling.csv").string(), "made");
    EXPECT_EQ(slurp(dir.path() / "made.csv"), "made") << "a dangling link's file is created";
    EXPECT_EQ(namesIn(dir.path()),
              (std::vector<std::string>{"dangling.csv", "link.csv", "made.csv", "target.csv"}));
}

TEST(WriteExportFile, RefusesToReplaceAPipeOrDeviceAndNamesIt) {
    TempDir dir;
    const fs::path fifo = dir.path() / "pipe.csv";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    try {
        writeExportFile(fifo.string(), "x");
        FAIL() << "no error";
    } catch (const ExportError &e) {
        EXPECT_EQ(std::string(e.what()),
                  "Cannot write " + fifo.string() +
                      ": not a regular file (a device, pipe or socket): refused, so that it is "
                      "not replaced by one");
    }
    EXPECT_TRUE(fs::is_fifo(fifo)) << "the pipe is still a pipe";
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"pipe.csv"});
}

TEST(WriteExportFile, AReplacedFileKeepsItsPermissions) {
    TempDir dir;
    const fs::path path = dir.path() / "private.csv";
    std::ofstream(path) << "old";
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    writeExportFile(path.string(), "new");
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600U);
    EXPECT_EQ(slurp(path), "new");
}

TEST(WriteComparisonCsv, AFolderInThePlaceOfALaterFileStopsTheSetBeforeAnyIsWritten) {
    RunSet set;
    set.addRecord(recordOf("h", {3.0, 2.0}), "a");
    TempDir dir;
    fs::create_directory(dir.path() / "cmp-groups.csv");
    const fs::path csv = dir.path() / "cmp.csv";
    try {
        writeComparisonCsv(set, csv.string());
        FAIL() << "no error";
    } catch (const ExportError &e) {
        EXPECT_EQ(std::string(e.what()),
                  "Cannot write " + (dir.path() / "cmp-groups.csv").string() + ": Is a directory");
    }
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"cmp-groups.csv"});
}

TEST(WriteComparisonCsv, WritesTheThreeFilesOrOnFailureNone) {
    RunSet set;
    set.addRecord(recordOf("h", {3.0, 2.0}), "a");
    TempDir dir;
    const fs::path csv = dir.path() / "cmp.csv";
    writeComparisonCsv(set, csv.string());
    EXPECT_EQ(slurp(csv), epochCsv(set));
    EXPECT_EQ(slurp(dir.path() / "cmp-summary.csv"), summaryCsv(set));
    EXPECT_EQ(slurp(dir.path() / "cmp-groups.csv"), groupsCsv(set));

    const fs::path missing = dir.path() / "gone" / "cmp.csv";
    EXPECT_THROW(writeComparisonCsv(set, missing.string()), ExportError);
    EXPECT_EQ(namesIn(dir.path()),
              (std::vector<std::string>{"cmp-groups.csv", "cmp-summary.csv", "cmp.csv"}));
}

// A busy machine: what each epoch got from the machine, one column each, empty for an
// epoch that was not measured (a record from before); the summary counts contended stable
// epochs under the set's warm-up setting.
EpochLoad measuredLoad(bool contended, double share, double others) {
    EpochLoad load;
    load.measured = true;
    load.contended = contended;
    load.cpuShare = share;
    load.otherCpus = others;
    load.stealFraction = 0.0;
    load.iowaitFraction = 0.0;
    load.loadAverage = 3.5;
    load.cpus = 2;
    load.cpuSeconds = 1.0;
    return load;
}

TEST(EpochCsv, ContendedEpochsAreMarkedWithTheirShareAndOldRecordsLeaveTheCellsEmpty) {
    RunSet set;
    RunRecord busy = recordOf("busy", {3.0, 2.0, 6.0});
    busy.epochs[0].load = measuredLoad(false, 0.97, 0.05);
    busy.epochs[1].load = measuredLoad(false, 0.96, 0.1);
    busy.epochs[2].load = measuredLoad(true, 0.4, 1.5);
    set.addRecord(busy, "busy");
    set.addRecord(recordOf("old", {3.0, 2.0}), "old"); // no load measured
    const std::vector<std::string> lines = splitLines(epochCsv(set));
    ASSERT_EQ(lines.size(), 6U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    const auto col = [&header](const std::string &name) {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << name;
        return static_cast<std::size_t>(it - header.begin());
    };
    const std::vector<std::string> clean = fieldsOf(lines[2]);
    const std::vector<std::string> contended = fieldsOf(lines[3]);
    const std::vector<std::string> old = fieldsOf(lines[4]);
    ASSERT_EQ(contended.size(), static_cast<std::size_t>(epochCsvColumnCount()));
    EXPECT_EQ(clean[col("contended")], "0");
    EXPECT_EQ(contended[col("contended")], "1");
    EXPECT_EQ(contended[col("cpu_share")], "0.4000");
    EXPECT_EQ(contended[col("other_cpus")], "1.5000");
    EXPECT_EQ(contended[col("steal_fraction")], "0.0000");
    EXPECT_EQ(contended[col("load_average")], "3.50");
    ASSERT_EQ(old.size(), static_cast<std::size_t>(epochCsvColumnCount()));
    for (const char *name :
         {"contended", "cpu_share", "other_cpus", "steal_fraction", "load_average"})
        EXPECT_EQ(old[col(name)], "") << name << ": unknown, not 0";
}

TEST(SummaryCsv, CountsTheContendedStableEpochsOfEachRun) {
    RunSet set;
    RunRecord busy = recordOf("busy", {3.0, 2.0, 6.0, 7.0});
    busy.epochs[0].load = measuredLoad(true, 0.5, 1.0); // warm-up: not counted
    busy.epochs[1].load = measuredLoad(false, 0.96, 0.1);
    busy.epochs[2].load = measuredLoad(true, 0.4, 1.5);
    busy.epochs[3].load = measuredLoad(true, 0.45, 1.4);
    set.addRecord(busy, "busy");
    set.addRecord(recordOf("old", {3.0, 2.0}), "old");
    const std::vector<std::string> lines = splitLines(summaryCsv(set));
    ASSERT_EQ(lines.size(), 3U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    const auto column = static_cast<std::size_t>(
        std::find(header.begin(), header.end(), "contended_stable_epochs") - header.begin());
    ASSERT_LT(column, header.size());
    EXPECT_EQ(fieldsOf(lines[1])[column], "2");
    EXPECT_EQ(fieldsOf(lines[2])[column], "") << "not measured: unknown";
    set.setWarmupEpochs(0); // the set's warm-up setting decides what is stable
    EXPECT_EQ(fieldsOf(splitLines(summaryCsv(set))[1])[column], "3");
}

} // namespace
} // namespace devicebench
