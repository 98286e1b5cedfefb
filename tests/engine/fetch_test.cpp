// SPDX-License-Identifier: MIT
// fetchCifar10() against a local HTTP server on 127.0.0.1 serving a synthetic archive built
// here: good, wrong checksum, truncated, server error, slow (cancelled mid-download); and
// local archives (--from): good, corrupt, unsafe entries, the wrong contents.
#include "cifar_archive.h"
#include "cifar_files.h"
#include "http_server.h"

#include "devicebench/data_location.h"
#include "devicebench/fetch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace devicebench;
using namespace devicebench::testing;

namespace {

// One full-size synthetic archive for every test, built once per build tree (sharedGoodArchive).
class FetchTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_good = sharedGoodArchive(DEVICEBENCH_TEST_CACHE_DIR);
        s_goodBytes = new std::string(readWholeFile(s_good));
        s_goodMd5 = new std::string(md5OfFile(s_good.string()));
    }
    static void TearDownTestSuite() {
        delete s_goodMd5;
        delete s_goodBytes;
    }

    // A fetch into a folder that does not exist yet (so "nothing left" means it is gone).
    FetchResult fetch(FetchOptions options) {
        if (options.targetDir.empty()) {
            options.targetDir = target().string();
        }
        if (!options.onProgress) {
            options.onProgress = [this](const FetchProgress &p) { reports.push_back(p); };
        }
        return fetchCifar10(options, cancel);
    }
    FetchOptions fromUrl(const std::string &path, const std::string &md5) const {
        FetchOptions o;
        o.url = server.url(path);
        o.expectedMd5 = md5;
        return o;
    }
    FetchOptions fromFile(const fs::path &archive, const std::string &md5) const {
        FetchOptions o;
        o.archivePath = archive.string();
        o.expectedMd5 = md5;
        return o;
    }
    fs::path target() const { return work.path() / "cache" / "devicebench"; }
    fs::path writeArchive(const std::string &name, const std::vector<ArchiveItem> &items) {
        const fs::path path = work.path() / name;
        writeTarGz(path, items);
        return path;
    }

    static fs::path s_good;
    static std::string *s_goodBytes;
    static std::string *s_goodMd5;

    TempDir work{"devicebench-fetch"};
    LocalHttpServer server;
    std::atomic<bool> cancel{false};
    std::vector<FetchProgress> reports;
};

fs::path FetchTest::s_good;
std::string *FetchTest::s_goodBytes = nullptr;
std::string *FetchTest::s_goodMd5 = nullptr;

TEST(FetchFormat, Md5OfFileGivesTheKnownDigests) {
    TempDir dir;
    writeWholeFile(dir.path() / "abc", "abc");
    writeWholeFile(dir.path() / "empty", "");
    EXPECT_EQ(md5OfFile((dir.path() / "abc").string()), "900150983cd24fb0d6963f7d28e17f72");
    EXPECT_EQ(md5OfFile((dir.path() / "empty").string()), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT_THROW(md5OfFile((dir.path() / "missing").string()), std::runtime_error);
}

TEST(FetchFormat, BytesUseDecimalUnitsAndDurationsRoundUp) {
    EXPECT_EQ(formatByteCount(999), "999 B");
    EXPECT_EQ(formatByteCount(1500), "1.5 kB");
    EXPECT_EQ(formatByteCount(73'200'000), "73.2 MB");
    EXPECT_EQ(formatByteCount(170'052'171), "170.1 MB");
    EXPECT_EQ(formatByteCount(1'200'000'000), "1.2 GB");
    EXPECT_EQ(formatTimeLeft(6.2), "7 s");
    EXPECT_EQ(formatTimeLeft(65.0), "1 min 05 s");
    EXPECT_EQ(formatTimeLeft(7380.0), "2 h 03 min");
}

TEST(FetchFormat, ProgressTextLeavesOutWhatIsUnknown) {
    FetchProgress p;
    p.bytesDone = 1'200'000;
    EXPECT_EQ(describeProgress(p), "1.2 MB");
    p.bytesTotal = 170'052'171;
    p.bytesPerSecond = 2'400'000.0;
    p.secondsLeft = 30.4;
    EXPECT_EQ(describeProgress(p), "1.2 MB of 170.1 MB, 2.4 MB/s, 31 s left");
}

TEST(FetchFormat, DefaultFolderIsTheParentOfTheStandardDataFolder) {
    ASSERT_FALSE(standardDataDir().empty()) << "HOME is set in the test environment";
    EXPECT_EQ(fs::path(defaultFetchDir()) / kCifar10FolderName, fs::path(standardDataDir()));
}

TEST_F(FetchTest, DownloadsChecksUnpacksAndMovesAGoodArchiveIntoPlace) {
    server.serve("/good.tar.gz", {200, *s_goodBytes});
    const FetchResult r = fetch(fromUrl("/good.tar.gz", *s_goodMd5));
    ASSERT_EQ(r.status, FetchStatus::Ok) << r.message;
    EXPECT_EQ(fs::path(r.dataDir), target() / "cifar-10-batches-bin");
    EXPECT_EQ(checkCifar10Folder(r.dataDir), "");
    EXPECT_TRUE(fs::exists(target() / "cifar-10-batches-bin" / "batches.meta.txt"));
    // Only the folder is left: no download, no temporary folder.
    EXPECT_EQ(entriesOf(target()), std::vector<std::string>{"cifar-10-batches-bin"});
    EXPECT_NE(r.message.find(server.url("/good.tar.gz")), std::string::npos) << r.message;

    // Every phase reported, in order, each ending complete; the download's total is known.
    std::vector<FetchPhase> phases;
    for (const auto &p : reports) {
        if (phases.empty() || phases.back() != p.phase) {
            phases.push_back(p.phase);
        }
    }
    EXPECT_EQ(phases, (std::vector<FetchPhase>{FetchPhase::Downloading, FetchPhase::Verifying,
                                               FetchPhase::Unpacking, FetchPhase::Checking}));
    const auto lastDownload = std::find_if(reports.rbegin(), reports.rend(), [](const auto &p) {
        return p.phase == FetchPhase::Downloading;
    });
    ASSERT_NE(lastDownload, reports.rend());
    EXPECT_EQ(lastDownload->bytesTotal, static_cast<std::int64_t>(s_goodBytes->size()));
    EXPECT_EQ(lastDownload->bytesDone, lastDownload->bytesTotal);
}

TEST_F(FetchTest, ASecondFetchFindsTheFolderAlreadyPresentAndDownloadsNothing) {
    server.serve("/good.tar.gz", {200, *s_goodBytes});
    ASSERT_EQ(fetch(fromUrl("/good.tar.gz", *s_goodMd5)).status, FetchStatus::Ok);
    const FetchResult again = fetch(fromUrl("/good.tar.gz", *s_goodMd5));
    EXPECT_EQ(again.status, FetchStatus::AlreadyPresent) << again.message;
    EXPECT_EQ(fs::path(again.dataDir), target() / "cifar-10-batches-bin");
    EXPECT_EQ(server.requestCount("/good.tar.gz"), 1);
}

TEST_F(FetchTest, WrongChecksumFailsNamingBothDigestsAndLeavesNothing) {
    std::string damaged = *s_goodBytes;
    damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x5a);
    server.serve("/damaged.tar.gz", {200, damaged});
    fs::create_directories(work.path() / "cache"); // exists before: must stay
    const FetchResult r = fetch(fromUrl("/damaged.tar.gz", *s_goodMd5));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("MD5"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("expected " + *s_goodMd5), std::string::npos) << r.message;
    writeWholeFile(work.path() / "damaged.tar.gz", damaged);
    const std::string damagedMd5 = md5OfFile((work.path() / "damaged.tar.gz").string());
    EXPECT_NE(r.message.find("is " + damagedMd5), std::string::npos) << r.message;
    EXPECT_FALSE(fs::exists(target())) << "the folder this fetch created is removed";
    EXPECT_TRUE(fs::exists(work.path() / "cache")) << "only the folders it created";
}

TEST_F(FetchTest, OfficialChecksumRefusesAnotherArchiveByDefault) {
    server.serve("/good.tar.gz", {200, *s_goodBytes});
    FetchOptions o;
    o.url = server.url("/good.tar.gz"); // expectedMd5 left at kCifar10Md5
    const FetchResult r = fetch(o);
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find(std::string("expected ") + kCifar10Md5), std::string::npos)
        << r.message;
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchTest, TruncatedDownloadFailsAndLeavesNothing) {
    LocalHttpServer::Response truncated;
    truncated.body = s_goodBytes->substr(0, s_goodBytes->size() / 2);
    truncated.declaredLength = static_cast<std::int64_t>(s_goodBytes->size());
    server.serve("/truncated.tar.gz", truncated);
    const FetchResult r = fetch(fromUrl("/truncated.tar.gz", *s_goodMd5));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("download of " + server.url("/truncated.tar.gz") + " failed"),
              std::string::npos)
        << r.message;
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchTest, ServerErrorFailsWithTheHttpStatus) {
    server.serve("/error", {500, "oops"});
    const FetchResult r = fetch(fromUrl("/error", *s_goodMd5));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("HTTP 500"), std::string::npos) << r.message;
    EXPECT_FALSE(fs::exists(target()));

    const FetchResult missing = fetch(fromUrl("/no-such-file", *s_goodMd5));
    EXPECT_NE(missing.message.find("HTTP 404"), std::string::npos) << missing.message;
}

TEST_F(FetchTest, UnsupportedSchemeFailsWithoutDownloading) {
    FetchOptions o;
    o.url = "ftp://127.0.0.1/cifar-10-binary.tar.gz";
    const FetchResult r = fetch(o);
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("ftp://127.0.0.1/cifar-10-binary.tar.gz"), std::string::npos)
        << r.message;
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchTest, CancelMidDownloadStopsAndLeavesNothing) {
    LocalHttpServer::Response slow;
    slow.body = *s_goodBytes;
    slow.chunkBytes = 4096;
    slow.pauseMs = 20;
    server.serve("/slow.tar.gz", slow);
    FetchOptions o = fromUrl("/slow.tar.gz", *s_goodMd5);
    std::int64_t bytesWhenCancelled = -1;
    o.onProgress = [&](const FetchProgress &p) {
        if (p.phase == FetchPhase::Downloading && p.bytesDone > 0 && !cancel.load()) {
            bytesWhenCancelled = p.bytesDone;
            cancel.store(true);
        }
    };
    const FetchResult r = fetch(o);
    EXPECT_EQ(r.status, FetchStatus::Cancelled) << r.message;
    EXPECT_GT(bytesWhenCancelled, 0);
    EXPECT_LT(bytesWhenCancelled, static_cast<std::int64_t>(s_goodBytes->size()));
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchTest, CancelIntoAnExistingFolderRemovesOnlyWhatItMade) {
    fs::create_directories(target());
    writeWholeFile(target() / "keep.txt", "mine");
    cancel.store(true);
    const FetchResult r = fetch(fromFile(s_good, *s_goodMd5));
    EXPECT_EQ(r.status, FetchStatus::Cancelled);
    EXPECT_EQ(entriesOf(target()), std::vector<std::string>{"keep.txt"});
}

TEST_F(FetchTest, LocalArchiveIsUnpackedAndKept) {
    const FetchResult r = fetch(fromFile(s_good, *s_goodMd5));
    ASSERT_EQ(r.status, FetchStatus::Ok) << r.message;
    EXPECT_EQ(checkCifar10Folder(r.dataDir), "");
    EXPECT_TRUE(fs::exists(s_good)) << "the user's archive is only read";
    EXPECT_EQ(entriesOf(target()), std::vector<std::string>{"cifar-10-batches-bin"});
}

TEST_F(FetchTest, CorruptLocalArchiveFailsAndLeavesNothing) {
    const fs::path corrupt = work.path() / "corrupt.tar.gz";
    writeWholeFile(corrupt, s_goodBytes->substr(0, s_goodBytes->size() / 3));
    const FetchResult r = fetch(fromFile(corrupt, ""));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find(corrupt.string() + " is not a usable archive"), std::string::npos)
        << r.message;
    EXPECT_FALSE(fs::exists(target()));

    const fs::path text = work.path() / "notes.txt";
    writeWholeFile(text, "not an archive at all\n");
    const FetchResult notArchive = fetch(fromFile(text, ""));
    EXPECT_EQ(notArchive.status, FetchStatus::Failed);
    EXPECT_NE(notArchive.message.find("not a usable archive"), std::string::npos)
        << notArchive.message;
    EXPECT_FALSE(fs::exists(target()));

    const FetchResult missing = fetch(fromFile(work.path() / "absent.tar.gz", ""));
    EXPECT_NE(missing.message.find("does not exist"), std::string::npos) << missing.message;
}

TEST_F(FetchTest, EntriesThatEscapeTheFolderAreRefused) {
    const auto payload = std::make_shared<const std::string>("escaped");
    struct Case {
        const char *what;
        ArchiveItem item;
        const char *expected;
    };
    const fs::path outside = work.path() / "escaped.txt";
    const std::vector<Case> cases = {
        {"dot-dot",
         {"cifar-10-batches-bin/../../../escaped.txt", ArchiveItem::Kind::File, payload, ""},
         "\"..\""},
        {"absolute", {outside.string(), ArchiveItem::Kind::File, payload, ""}, "absolute"},
        {"symlink",
         {"cifar-10-batches-bin/link", ArchiveItem::Kind::Symlink, nullptr, outside.string()},
         "not a plain file"},
        {"hard link",
         {"cifar-10-batches-bin/hard", ArchiveItem::Kind::Hardlink, nullptr, "/etc/passwd"},
         "not a plain file"},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.what);
        std::vector<ArchiveItem> items = {
            {"cifar-10-batches-bin/", ArchiveItem::Kind::Folder, nullptr, ""},
            {"cifar-10-batches-bin/batches.meta.txt", ArchiveItem::Kind::File, payload, ""},
            c.item};
        const FetchResult r = fetch(fromFile(writeArchive("unsafe.tar.gz", items), ""));
        EXPECT_EQ(r.status, FetchStatus::Failed);
        EXPECT_NE(r.message.find("refused"), std::string::npos) << r.message;
        EXPECT_NE(r.message.find(c.expected), std::string::npos) << r.message;
        EXPECT_FALSE(fs::exists(outside));
        EXPECT_FALSE(fs::exists(target()));
    }
}

TEST_F(FetchTest, ArchiveWithoutTheBinaryFolderFailsNamingWhatItHolds) {
    const auto bytes = std::make_shared<const std::string>("x");
    const FetchResult r = fetch(fromFile(
        writeArchive("py.tar.gz",
                     {{"cifar-10-batches-py/", ArchiveItem::Kind::Folder, nullptr, ""},
                      {"cifar-10-batches-py/data_batch_1", ArchiveItem::Kind::File, bytes, ""}}),
        ""));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("holds no cifar-10-batches-bin folder (its top level: "
                             "cifar-10-batches-py)"),
              std::string::npos)
        << r.message;
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchTest, ArchiveWithShortBatchesFailsTheFolderCheckWithoutTemporaryPaths) {
    const FetchResult r = fetch(
        fromFile(writeArchive("short.tar.gz", cifarArchiveItems(/*recordsPerBatch=*/10)), ""));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("does not hold a usable CIFAR-10 binary folder"), std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("data_batch_1.bin"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find(".cifar-10-fetch-"), std::string::npos) << r.message;
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchTest, ExistingUnusableFolderIsNeverReplaced) {
    fs::create_directories(target() / "cifar-10-batches-bin");
    writeWholeFile(target() / "cifar-10-batches-bin" / "data_batch_1.bin", "junk");
    const FetchResult r = fetch(fromFile(s_good, *s_goodMd5));
    EXPECT_EQ(r.status, FetchStatus::Failed);
    EXPECT_NE(r.message.find("already exists and is not a usable CIFAR-10 folder"),
              std::string::npos)
        << r.message;
    EXPECT_EQ(readWholeFile(target() / "cifar-10-batches-bin" / "data_batch_1.bin"), "junk");
    EXPECT_EQ(entriesOf(target()), std::vector<std::string>{"cifar-10-batches-bin"});
}

} // namespace
