// SPDX-License-Identifier: MIT
// devicebench-cli as a user runs it: a child process, its exit code, its output and files.
#include "cifar_files.h"

#include <QImage>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace {

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string slurp(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string shellQuote(const std::string &s) {
    std::string q = "'";
    for (char ch : s) {
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    }
    return q + "'";
}

// Runs devicebench-cli with `args` and `env` prefixed (e.g. "HOME=/x"), in a clean data
// environment: no DEVICEBENCH_DATA and an empty cache unless the caller sets them.
CliResult runCli(const std::vector<std::string> &args, const std::string &env = "") {
    static TempDir io("devicebench-cli-io");
    static TempDir home("devicebench-cli-home");
    static int counter = 0;
    const fs::path out = io.path() / ("out" + std::to_string(counter));
    const fs::path err = io.path() / ("err" + std::to_string(counter++));
    std::string cmd = "env -u DEVICEBENCH_DATA XDG_CACHE_HOME= HOME=" +
                      shellQuote(home.path().string()) + " " + env + " " +
                      shellQuote(DEVICEBENCH_CLI);
    for (const auto &a : args) {
        cmd += " " + shellQuote(a);
    }
    cmd += " >" + shellQuote(out.string()) + " 2>" + shellQuote(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

std::vector<std::vector<std::string>> parseCsv(const fs::path &p) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char ch = line[i];
            if (quoted) {
                if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                    cell += '"';
                    ++i;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cell += ch;
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                cells.push_back(cell);
                cell.clear();
            } else {
                cell += ch;
            }
        }
        cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

// Number of distinct colours in a coarse sample of the picture: a blank PNG has one.
int distinctColours(const QImage &image) {
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7) {
            colours.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(colours.size());
}

const std::vector<std::string> kTinySynthetic = {
    "run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1", "--train-images", "256",
    "--test-images", "128", "--threads", "1", "--batch-size", "32"};

} // namespace

TEST(Cli, TinySyntheticRunPrintsEpochLinesSummaryAndWritesCsvAndPng) {
    TempDir dir;
    const fs::path csv = dir.path() / "out.csv";
    const fs::path png = dir.path() / "out.png";
    auto args = kTinySynthetic;
    args.insert(args.end(), {"--csv", csv.string(), "--png", png.string()});
    const CliResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("epoch  1/2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("epoch  2/2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mean of all epochs:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stable mean (epochs 2-2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SYNTHETIC DATA: times are real, accuracy is meaningless"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(r.err.empty()) << "stderr is not a terminal, so no progress: " << r.err;

    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 3u) << "header + one row per epoch";
    const std::vector<std::string> header = {"run", "device", "threads", "epoch", "seconds",
                                             "warmup", "train_loss", "test_loss",
                                             "test_accuracy", "images_per_s", "data", "status"};
    EXPECT_EQ(rows[0], header);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), header.size());
        EXPECT_EQ(rows[i][1], "cpu");
        EXPECT_EQ(rows[i][2], "1");
        EXPECT_EQ(rows[i][3], std::to_string(i));
        EXPECT_GT(std::stod(rows[i][4]), 0.0);
        EXPECT_EQ(rows[i][5], i == 1 ? "1" : "0");
        EXPECT_GT(std::stod(rows[i][6]), 0.0);
        EXPECT_GT(std::stod(rows[i][9]), 0.0);
        EXPECT_EQ(rows[i][10], "synthetic");
    }

    QImage image;
    ASSERT_TRUE(image.load(QString::fromStdString(png.string())));
    EXPECT_GE(image.width(), 800);
    EXPECT_GT(distinctColours(image), 10) << "the PNG must not be blank";
}

TEST(Cli, RunsOnFilesInTheBinaryLayoutWithImageLimits) {
    TempDir dir;
    const fs::path data = dir.path() / "cifar 10 – ✓";
    devicebench::testing::writeDataset(data);
    const CliResult r = runCli({"run", "--data-dir", data.string(), "--epochs", "1",
                                "--warmup-epochs", "0", "--train-images", "300",
                                "--test-images", "100", "--threads", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("300 training, 100 test images"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(data.string()), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("SYNTHETIC"), std::string::npos) << r.out;
}

TEST(Cli, DataFolderFromTheEnvironmentVariableIsUsed) {
    const CliResult r = runCli({"run", "--epochs", "1", "--warmup-epochs", "0"},
                               "DEVICEBENCH_DATA=/env/points/here");
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("'/env/points/here' does not exist"), std::string::npos) << r.err;
}

TEST(Cli, NoDataFoundSaysWhereToGetAndPutCifar10) {
    const CliResult r = runCli({"run", "--epochs", "1"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("cifar-10-binary.tar.gz"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("devicebench/cifar-10-batches-bin"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--synthetic"), std::string::npos) << r.err;
}

TEST(Cli, MissingDataFolderFailsNamingIt) {
    const CliResult r = runCli({"run", "--data-dir", "/nonexistent/cifar", "--epochs", "1",
                                "--warmup-epochs", "0"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("'/nonexistent/cifar' does not exist"), std::string::npos) << r.err;
}

struct BadArgs {
    std::vector<std::string> args;
    const char *expected; // in stderr
};

class CliRejects : public ::testing::TestWithParam<BadArgs> {};

TEST_P(CliRejects, WithExitCodeTwoAndAMessageNamingTheValue) {
    std::vector<std::string> args = {"run", "--synthetic"};
    args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(GetParam().expected), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "no run may start: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, CliRejects,
    ::testing::Values(BadArgs{{"--batch-size", "64x"}, "64x"},
                      BadArgs{{"--epochs", "0"}, "epochs must be at least 1 (got 0)"},
                      BadArgs{{"--epochs=-2"}, "(got -2)"},
                      BadArgs{{"--lr", "nan"}, "learning rate"},
                      BadArgs{{"--threads", "2000"}, "threads must be between 1 and 1024"},
                      BadArgs{{"--device", "gpu"}, "unknown device 'gpu'"},
                      BadArgs{{"--device", "cuda:7"}, "cuda:7"},
                      BadArgs{{"--warmup-epochs", "10"}, "warm-up epochs (10) must be fewer"},
                      BadArgs{{"--no-such-flag"}, "--no-such-flag"}));

TEST(Cli, DevicesListsTheCpuAndSaysWhyCudaIsNotUsable) {
    const CliResult r = runCli({"devices"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("cpu"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("usable"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cuda"), std::string::npos) << r.out;
}

TEST(Cli, ExportToAnUnwritablePathFailsNamingItAndLeavesNoFile) {
    const std::string png = "/nonexistent-dir/out.png";
    const std::vector<std::string> args = {"run", "--synthetic", "--epochs", "1", "--warmup-epochs", "0", "--train-images",
            "64", "--test-images", "64", "--threads", "1", "--png", png};
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find(png), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(png));
}

TEST(Cli, ComparesEveryThreadCountInOneInvocation) {
    TempDir dir;
    const fs::path csv = dir.path() / "both.csv";
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1",
                                "--train-images", "128", "--test-images", "64", "--threads",
                                "1,2", "--csv", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("comparison (stable mean"), std::string::npos) << r.out;
    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[1][2], "1");
    EXPECT_EQ(rows[3][2], "2");
}
