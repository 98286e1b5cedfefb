// SPDX-License-Identifier: MIT
// `devicebench-cli fetch-data` as a user runs it, against a local HTTP server on 127.0.0.1
// serving a synthetic archive: exit codes, messages, the folder made, nothing left behind
// by a failure or by Ctrl-C (SIGINT).
#include "cifar_archive.h"
#include "cifar_files.h"
#include "http_server.h"

#include "devicebench/data_location.h"
#include "devicebench/fetch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace fs = std::filesystem;
using namespace devicebench::testing;

namespace {

struct Outcome {
    int exitCode = -1;
    std::string out;
    std::string err;
};

class FetchDataCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_good = new fs::path(sharedGoodArchive(DEVICEBENCH_TEST_CACHE_DIR));
        s_md5 = new std::string(devicebench::md5OfFile(s_good->string()));
    }
    static void TearDownTestSuite() {
        delete s_md5;
        delete s_good;
    }

    // Starts devicebench-cli with `args` in a clean environment (cache under the work dir);
    // stdout and stderr go to files (not a terminal: plain progress lines).
    pid_t start(const std::vector<std::string> &args) {
        std::vector<std::string> argv = {"env",
                                         "-u",
                                         "DEVICEBENCH_DATA",
                                         "XDG_CACHE_HOME=" + (work.path() / "xdg").string(),
                                         "HOME=" + work.path().string(),
                                         DEVICEBENCH_CLI};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char *> raw;
        for (auto &a : argv) {
            raw.push_back(a.data());
        }
        raw.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, outPath().c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, errPath().c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        pid_t pid = -1;
        const int rc = posix_spawn(&pid, "/usr/bin/env", &actions, nullptr, raw.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        return rc == 0 ? pid : -1;
    }

    Outcome wait(pid_t pid) {
        int status = 0;
        waitpid(pid, &status, 0);
        Outcome o;
        o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        o.out = readWholeFile(outPath());
        o.err = readWholeFile(errPath());
        return o;
    }

    Outcome run(const std::vector<std::string> &args) { return wait(start(args)); }

    fs::path outPath() const { return work.path() / "stdout.txt"; }
    fs::path errPath() const { return work.path() / "stderr.txt"; }
    fs::path target() const { return work.path() / "data"; }

    static fs::path *s_good;
    static std::string *s_md5;

    TempDir work{"devicebench-cli-fetch"};
    LocalHttpServer server;
};

fs::path *FetchDataCli::s_good = nullptr;
std::string *FetchDataCli::s_md5 = nullptr;

TEST_F(FetchDataCli, DownloadFromTheServerMakesTheCheckedFolderAndSaysWhere) {
    server.serve("/c.tar.gz", {200, readWholeFile(*s_good)});
    const Outcome o = run({"fetch-data", "--url", server.url("/c.tar.gz"), "--md5", *s_md5, "--dir",
                           target().string()});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const fs::path folder = target() / "cifar-10-batches-bin";
    EXPECT_NE(o.out.find("is ready in " + folder.string()), std::string::npos) << o.out;
    EXPECT_EQ(devicebench::checkCifar10Folder(folder.string()), "");
    EXPECT_EQ(entriesOf(target()), std::vector<std::string>{"cifar-10-batches-bin"});
    // Not a terminal: one line per phase and the download's 100% line, no carriage returns.
    for (const char *line :
         {"downloading\n", "  100% (", "verifying MD5\n", "unpacking\n", "checking the folder\n"}) {
        EXPECT_NE(o.err.find(line), std::string::npos) << line << " in\n" << o.err;
    }
    EXPECT_EQ(o.err.find('\r'), std::string::npos) << o.err;
}

TEST_F(FetchDataCli, FromALocalArchiveUnpacksIntoTheCacheFolderThenFindsItPresent) {
    const Outcome o = run({"fetch-data", "--from", s_good->string(), "--md5", *s_md5});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const fs::path cached = work.path() / "xdg" / "devicebench" / "cifar-10-batches-bin";
    EXPECT_EQ(devicebench::checkCifar10Folder(cached.string()), "");
    EXPECT_NE(o.out.find(cached.string()), std::string::npos) << o.out;

    const Outcome again = run({"fetch-data", "--from", s_good->string(), "--md5", *s_md5});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("already in " + cached.string()), std::string::npos) << again.out;
}

TEST_F(FetchDataCli, FailuresExitOneWithTheReasonAndLeaveNothing) {
    server.serve("/error", {500, "oops"});
    const Outcome error =
        run({"fetch-data", "--url", server.url("/error"), "--dir", target().string()});
    EXPECT_EQ(error.exitCode, 1);
    EXPECT_NE(error.err.find("HTTP 500"), std::string::npos) << error.err;
    EXPECT_FALSE(fs::exists(target()));

    const fs::path corrupt = work.path() / "corrupt.tar.gz";
    writeWholeFile(corrupt, readWholeFile(*s_good).substr(0, 5000));
    const Outcome bad =
        run({"fetch-data", "--from", corrupt.string(), "--no-md5", "--dir", target().string()});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("is not a usable archive"), std::string::npos) << bad.err;
    EXPECT_FALSE(fs::exists(target()));

    // The official MD5 by default: the synthetic archive is refused.
    const Outcome md5 = run({"fetch-data", "--from", s_good->string(), "--dir", target().string()});
    EXPECT_EQ(md5.exitCode, 1);
    EXPECT_NE(md5.err.find(std::string("expected ") + devicebench::kCifar10Md5), std::string::npos)
        << md5.err;
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchDataCli, BadUsageExitsTwo) {
    EXPECT_EQ(run({"fetch-data", "--url", "http://127.0.0.1/x", "--from", "x.tar.gz"}).exitCode, 2);
    const Outcome md5 = run({"fetch-data", "--md5", "12345"});
    EXPECT_EQ(md5.exitCode, 2);
    EXPECT_NE(md5.err.find("not an MD5"), std::string::npos) << md5.err;
    EXPECT_EQ(run({"fetch-data", "--md5", *s_md5, "--no-md5"}).exitCode, 2);
}

TEST_F(FetchDataCli, SigintMidDownloadExits130AndLeavesNothing) {
    LocalHttpServer::Response slow;
    slow.body = readWholeFile(*s_good);
    slow.chunkBytes = 2048;
    slow.pauseMs = 50; // minutes for the whole archive: it is interrupted long before
    server.serve("/slow.tar.gz", slow);
    const pid_t pid = start({"fetch-data", "--url", server.url("/slow.tar.gz"), "--md5", *s_md5,
                             "--dir", target().string()});
    ASSERT_GT(pid, 0);
    // Wait (bounded) until the download is under way, then interrupt as Ctrl-C would.
    for (int i = 0; i < 600 && server.bytesSent("/slow.tar.gz") == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_GT(server.bytesSent("/slow.tar.gz"), 0) << "the download never started";
    kill(pid, SIGINT);
    const Outcome o = wait(pid);
    EXPECT_EQ(o.exitCode, 130) << o.err;
    EXPECT_NE(o.err.find("cancelled; nothing was left behind"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(target()));
}

} // namespace
