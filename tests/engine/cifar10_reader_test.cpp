// SPDX-License-Identifier: MIT
#include "cifar_files.h"

#include "devicebench/cifar10.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace devicebench;
using devicebench::testing::TempDir;
using devicebench::testing::writeBatchFile;

namespace {

// One valid data folder shared by the tests that only read it (writing 184 MB per test is slow).
class Cifar10Folder : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        m_dir = new TempDir("devicebench-cifar");
        devicebench::testing::writeDataset(m_dir->path());
    }
    static void TearDownTestSuite() {
        delete m_dir;
        m_dir = nullptr;
    }
    static TempDir *m_dir;
};
TempDir *Cifar10Folder::m_dir = nullptr;

std::string errorOf(const std::function<void()> &f) {
    try {
        f();
    } catch (const DataError &e) {
        return e.what();
    }
    return "<no DataError thrown>";
}

} // namespace

TEST_F(Cifar10Folder, LoadsBothSplitsAsUint8ImagesAndInt64Labels) {
    const Cifar10 data = loadCifar10(m_dir->path().string());
    EXPECT_EQ(data.train.images.sizes(), (std::vector<std::int64_t>{50000, 3, 32, 32}));
    EXPECT_EQ(data.test.images.sizes(), (std::vector<std::int64_t>{10000, 3, 32, 32}));
    EXPECT_EQ(data.train.images.scalar_type(), torch::kUInt8);
    EXPECT_EQ(data.train.labels.scalar_type(), torch::kInt64);
    EXPECT_EQ(data.train.labels.size(0), 50000);
    EXPECT_FALSE(data.synthetic);
}

TEST_F(Cifar10Folder, KeepsRecordOrderLabelsAndPlanarPixelLayout) {
    const Cifar10 data = loadCifar10(m_dir->path().string());
    // Record 10,003 of the training split is record 3 of data_batch_2.bin: label 3,
    // pixel byte j = (3 + j) % 256; byte 0 is red (0,0), byte 1024 is green (0,0).
    EXPECT_EQ(data.train.labels[10003].item<std::int64_t>(), 3);
    EXPECT_EQ(data.train.images[10003][0][0][0].item<int>(), 3);
    EXPECT_EQ(data.train.images[10003][0][0][1].item<int>(), 4);
    EXPECT_EQ(data.train.images[10003][0][1][0].item<int>(), (3 + 32) % 256);
    EXPECT_EQ(data.train.images[10003][1][0][0].item<int>(), (3 + 1024) % 256);
    EXPECT_EQ(data.train.images[10003][2][0][0].item<int>(), (3 + 2048) % 256);
}

TEST_F(Cifar10Folder, KeepsOnlyTheFirstNImagesWhenLimited) {
    const Cifar10 data = loadCifar10(m_dir->path().string(), 12345, 77);
    EXPECT_EQ(data.train.size(), 12345);
    EXPECT_EQ(data.test.size(), 77);
    EXPECT_EQ(data.train.labels[12344].item<std::int64_t>(), 12344 % 10);
}

TEST_F(Cifar10Folder, RejectsALimitBeyondTheSplit) {
    EXPECT_NE(errorOf([&] { loadCifar10(m_dir->path().string(), 50001, 0); }).find("holds 50000"),
              std::string::npos);
}

TEST_F(Cifar10Folder, WorksThroughAPathWithSpacesAndNonAsciiCharacters) {
    TempDir parent;
    const fs::path odd = parent.path() / "my data – Ünïcødé";
    fs::create_directory_symlink(m_dir->path(), odd);
    const Cifar10 data = loadCifar10(odd.string(), 100, 100);
    EXPECT_EQ(data.train.size(), 100);
}

TEST(Cifar10Reader, ConvertsABatchToFloatInUnitRangeAsToTensorDoes) {
    auto bytes = torch::tensor({0, 51, 255}, torch::kUInt8).reshape({1, 3, 1, 1});
    auto f = toUnitFloat(bytes);
    EXPECT_EQ(f.scalar_type(), torch::kFloat32);
    EXPECT_FLOAT_EQ(f[0][0][0][0].item<float>(), 0.0f);
    EXPECT_FLOAT_EQ(f[0][1][0][0].item<float>(), 0.2f);
    EXPECT_FLOAT_EQ(f[0][2][0][0].item<float>(), 1.0f);
}

TEST(Cifar10Reader, NamesAMissingFolder) {
    const std::string msg = errorOf([] { loadCifar10("/nonexistent/cifar-10-batches-bin"); });
    EXPECT_NE(msg.find("'/nonexistent/cifar-10-batches-bin' does not exist"), std::string::npos)
        << msg;
}

TEST(Cifar10Reader, NamesAMissingBatchFile) {
    TempDir dir;
    writeBatchFile(dir.path() / "data_batch_1.bin", 10000, devicebench::testing::cyclicLabel);
    const std::string msg = errorOf([&] { loadCifar10(dir.path().string()); });
    EXPECT_NE(msg.find("data_batch_2.bin' is missing"), std::string::npos) << msg;
}

TEST(Cifar10Reader, SaysThePythonPickleVariantIsNotTheBinaryVersion) {
    TempDir dir;
    const fs::path py = dir.path() / "cifar-10-batches-py";
    fs::create_directory(py);
    for (const char *name : {"data_batch_1", "data_batch_2", "test_batch", "batches.meta"}) {
        std::ofstream(py / name) << "pickle";
    }
    const std::string msg = errorOf([&] { loadCifar10(py.string()); });
    EXPECT_NE(msg.find("Python pickle variant"), std::string::npos) << msg;
    EXPECT_NE(msg.find("binary version"), std::string::npos) << msg;
}

TEST(Cifar10Reader, RejectsAFileTruncatedByOneByte) {
    TempDir dir;
    const fs::path file = dir.path() / "data_batch_1.bin";
    writeBatchFile(file, 10000, devicebench::testing::cyclicLabel, /*extraBytes=*/-1);
    const std::string msg = errorOf([&] { readBatchFile(file.string()); });
    EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find("not a multiple of the 3,073-byte"), std::string::npos) << msg;
}

TEST(Cifar10Reader, RejectsAFileWithExtraBytes) {
    TempDir dir;
    const fs::path file = dir.path() / "test_batch.bin";
    writeBatchFile(file, 10000, devicebench::testing::cyclicLabel, /*extraBytes=*/5);
    EXPECT_NE(errorOf([&] { readBatchFile(file.string()); }).find("30730005 bytes"),
              std::string::npos);
}

TEST(Cifar10Reader, RejectsAWholeNumberOfRecordsOtherThanTenThousand) {
    TempDir dir;
    const fs::path file = dir.path() / "data_batch_3.bin";
    writeBatchFile(file, 9999, devicebench::testing::cyclicLabel);
    const std::string msg = errorOf([&] { readBatchFile(file.string()); });
    EXPECT_NE(msg.find("holds 9999 records"), std::string::npos) << msg;
}

TEST(Cifar10Reader, GivesTheRecordIndexOfALabelByteOverNine) {
    TempDir dir;
    const fs::path file = dir.path() / "data_batch_1.bin";
    writeBatchFile(file, 10000, [](std::int64_t i) { return i == 4321 ? 10 : 0; });
    const std::string msg = errorOf([&] { readBatchFile(file.string()); });
    EXPECT_NE(msg.find("record 4321 has label byte 10"), std::string::npos) << msg;
}

TEST(Cifar10Reader, ChecksLabelsPastTheLimitToo) {
    TempDir dir;
    const fs::path file = dir.path() / "data_batch_1.bin";
    writeBatchFile(file, 10000, [](std::int64_t i) { return i == 9999 ? 255 : 0; });
    const std::string msg = errorOf([&] { readBatchFile(file.string(), 10); });
    EXPECT_NE(msg.find("record 9999 has label byte 255"), std::string::npos) << msg;
}

TEST(Cifar10Reader, RecognisesCifar100RecordsByTheirSize) {
    TempDir dir;
    const fs::path file = dir.path() / "data_batch_1.bin";
    std::ofstream(file, std::ios::binary) << std::string(3074 * 100, '\0');
    const std::string msg = errorOf([&] { readBatchFile(file.string()); });
    EXPECT_NE(msg.find("CIFAR-100"), std::string::npos) << msg;
}

TEST(Cifar10Reader, SaysAnEmptyFolderIsEmpty) {
    TempDir dir;
    const std::string msg = errorOf([&] { loadCifar10(dir.path().string()); });
    EXPECT_NE(msg.find("is empty"), std::string::npos) << msg;
    EXPECT_NE(msg.find(dir.path().string()), std::string::npos) << msg;
}

TEST(Cifar10Reader, RecognisesACifar100Folder) {
    TempDir dir;
    std::ofstream(dir.path() / "train.bin", std::ios::binary) << std::string(3074 * 10, '\0');
    std::ofstream(dir.path() / "test.bin", std::ios::binary) << std::string(3074 * 10, '\0');
    const std::string msg = errorOf([&] { loadCifar10(dir.path().string()); });
    EXPECT_NE(msg.find("holds CIFAR-100"), std::string::npos) << msg;
}

TEST(Cifar10Reader, ReportsAnUnreadableFolder) {
    if (geteuid() == 0) {
        GTEST_SKIP() << "running as root: permissions do not stop reading, nothing to test";
    }
    TempDir dir;
    fs::permissions(dir.path(), fs::perms::none);
    const std::string msg = errorOf([&] { loadCifar10(dir.path().string()); });
    EXPECT_NE(msg.find("cannot read"), std::string::npos) << msg;
}

TEST(Cifar10Reader, MakesSyntheticDataOfTheSameShapeDeterministically) {
    const Cifar10 a = makeSyntheticCifar10(100, 20, 7);
    const Cifar10 b = makeSyntheticCifar10(100, 20, 7);
    EXPECT_TRUE(a.synthetic);
    EXPECT_EQ(a.train.images.sizes(), (std::vector<std::int64_t>{100, 3, 32, 32}));
    EXPECT_TRUE(torch::equal(a.train.images, b.train.images));
    EXPECT_LE(a.train.labels.max().item<std::int64_t>(), 9);
    EXPECT_GE(a.train.labels.min().item<std::int64_t>(), 0);
}

// parseBatchRecords: the bytes-only part of the reader (also what tests/fuzz drives).
namespace {
std::vector<std::uint8_t> recordBytes(const std::vector<int> &labels) {
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        bytes.push_back(static_cast<std::uint8_t>(labels[i]));
        for (std::int64_t j = 0; j < kCifarImageBytes; ++j) {
            bytes.push_back(static_cast<std::uint8_t>((static_cast<std::int64_t>(i) + j) % 256));
        }
    }
    return bytes;
}
} // namespace

TEST(Cifar10Records, ParsesAnyWholeNumberOfRecordsHeldInMemoryInPlanarLayout) {
    const auto bytes = recordBytes({7, 0, 9});
    const Split split = parseBatchRecords(bytes.data(), bytes.size(), "three records");
    ASSERT_EQ(split.images.sizes(), (std::vector<std::int64_t>{3, 3, 32, 32}));
    EXPECT_EQ(split.labels[0].item<std::int64_t>(), 7);
    EXPECT_EQ(split.labels[2].item<std::int64_t>(), 9);
    // Record 2, byte j = (2 + j) % 256: red (0,1) is byte 1, green (0,0) is byte 1024.
    EXPECT_EQ(split.images[2][0][0][1].item<int>(), 3);
    EXPECT_EQ(split.images[2][1][0][0].item<int>(), (2 + 1024) % 256);
}

TEST(Cifar10Records, RejectsNoBytesAndAPartialRecordNamingTheSource) {
    const auto bytes = recordBytes({1, 2});
    const std::string empty = errorOf([&] { parseBatchRecords(bytes.data(), 0, "in.bin"); });
    EXPECT_NE(empty.find("'in.bin' holds no CIFAR-10 records"), std::string::npos) << empty;
    const std::string partial =
        errorOf([&] { parseBatchRecords(bytes.data(), bytes.size() - 1, "in.bin"); });
    EXPECT_NE(partial.find("'in.bin' has 6145 bytes, not a whole number"), std::string::npos)
        << partial;
}

TEST(Cifar10Records, GiveTheRecordIndexOfALabelByteOverNine) {
    const auto bytes = recordBytes({1, 2, 200});
    const std::string msg =
        errorOf([&] { parseBatchRecords(bytes.data(), bytes.size(), "in.bin"); });
    EXPECT_NE(msg.find("'in.bin': record 2 has label byte 200"), std::string::npos) << msg;
}
