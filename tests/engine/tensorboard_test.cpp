// SPDX-License-Identifier: MIT
// TensorBoard event files: CRC-32C test vectors, the TFRecord framing and the protobuf bytes
// pinned to hand-encoded known bytes, and the observer's file read back record by record.
// (The independent check, a Python decoder with protoc, is the ctest tensorboard.cli_event_file.)
#include "devicebench/tensorboard.h"

#include "cifar_files.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;
using namespace devicebench;
using namespace devicebench::tensorboard;

namespace {

std::string bytes(std::initializer_list<unsigned> values) {
    std::string s;
    for (unsigned v : values) {
        s.push_back(static_cast<char>(v));
    }
    return s;
}

std::string hex(const std::string &data) {
    static const char *digits = "0123456789abcdef";
    std::string s;
    for (const char c : data) {
        const auto ch = static_cast<unsigned char>(c);
        s += digits[ch >> 4U];
        s += digits[ch & 0xFU];
        s += ' ';
    }
    return s;
}

std::uint32_t readLe32(const std::string &data, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        v |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[at + i])) << (8 * i);
    }
    return v;
}

std::uint64_t readLe64(const std::string &data, std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) {
        v |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[at + i])) << (8 * i);
    }
    return v;
}

// Splits an event file into its records' data, checking both CRCs of each record.
std::vector<std::string> readRecords(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    const std::string file = s.str();
    std::vector<std::string> records;
    std::size_t at = 0;
    while (at < file.size()) {
        EXPECT_LE(at + 12, file.size()) << "truncated header at byte " << at;
        if (at + 12 > file.size()) {
            break;
        }
        const std::uint64_t length = readLe64(file, at);
        EXPECT_EQ(readLe32(file, at + 8), maskCrc(crc32c(file.substr(at, 8))))
            << "length CRC at byte " << at;
        const std::size_t dataAt = at + 12;
        EXPECT_LE(dataAt + length + 4, file.size()) << "truncated record at byte " << at;
        if (dataAt + length + 4 > file.size()) {
            break;
        }
        const std::string data = file.substr(dataAt, static_cast<std::size_t>(length));
        EXPECT_EQ(readLe32(file, dataAt + length), maskCrc(crc32c(data)))
            << "data CRC at byte " << at;
        records.push_back(data);
        at = dataAt + length + 4;
    }
    return records;
}

// Records the events it is forwarded.
class Counter : public TrainingObserver {
public:
    void onRunStarted(const RunStarted &) override { ++started; }
    void onStepLosses(const std::vector<StepLoss> &l) override { steps += l.size(); }
    void onEpochFinished(const EpochResult &) override { ++epochs; }
    void onRunEnded(const RunOutcome &) override { ++ended; }
    int started = 0;
    std::size_t steps = 0;
    int epochs = 0;
    int ended = 0;
};

// The wall_time of an event record (field 1, fixed64 little-endian double at bytes 1..8).
double wallTimeOf(const std::string &record) {
    const std::uint64_t bits = readLe64(record, 1);
    double value = 0.0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

} // namespace

TEST(TensorBoardCrc32c, MatchesTheRfc3720TestVectors) {
    EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8A9136AAU);
    EXPECT_EQ(crc32c(std::string(32, '\xFF')), 0x62A8AB43U);
    std::string ascending, descending;
    for (int i = 0; i < 32; ++i) {
        ascending.push_back(static_cast<char>(i));
        descending.push_back(static_cast<char>(31 - i));
    }
    EXPECT_EQ(crc32c(ascending), 0x46DD794EU);
    EXPECT_EQ(crc32c(descending), 0x113FDB5CU);
    EXPECT_EQ(crc32c("123456789"), 0xE3069283U); // the CRC catalogue's check value
    EXPECT_EQ(crc32c(""), 0U);
}

TEST(TensorBoardCrc32c, MaskRotatesRightBy15AndAddsTheTfRecordConstant) {
    EXPECT_EQ(maskCrc(0), 0xA282EAD8U);
    EXPECT_EQ(maskCrc(0xE3069283U), 0xC78AB0E5U);
    EXPECT_EQ(maskCrc(0xFFFFFFFFU), 0xA282EAD7U); // wraps modulo 2^32
}

TEST(TensorBoardRecord, FramesLengthCrcDataCrcLittleEndian) {
    // Empty data: 8 zero bytes, masked CRC-32C of them (0x07980329), masked CRC of nothing.
    EXPECT_EQ(hex(frameRecord("")),
              hex(bytes({0, 0, 0, 0, 0, 0, 0, 0, 0x29, 0x03, 0x98, 0x07, 0xD8, 0xEA, 0x82, 0xA2})));
    const std::string framed = frameRecord("123456789");
    ASSERT_EQ(framed.size(), 8U + 4U + 9U + 4U);
    EXPECT_EQ(readLe64(framed, 0), 9U);
    EXPECT_EQ(framed.substr(12, 9), "123456789");
    EXPECT_EQ(readLe32(framed, 21), 0xC78AB0E5U); // maskCrc(crc32c("123456789"))
}

TEST(TensorBoardEvent, FileVersionEventHasWallTimeAndBrainEvent2) {
    // wall_time (field 1, fixed64): 1.5 = 0x3FF8000000000000; file_version (field 3).
    EXPECT_EQ(hex(fileVersionEvent(1.5)),
              hex(bytes({0x09, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0x1A, 13}) + "brain.Event:2"));
}

TEST(TensorBoardEvent, ScalarEventEncodesStepTagAndSimpleValue) {
    // Event{wall_time 1.5, step 3, summary{value{tag "a", simple_value 2.0f}}}
    EXPECT_EQ(hex(scalarEvent(1.5, 3, "a", 2.0F)),
              hex(bytes({0x09, 0,    0,    0,    0,   0, 0, 0xF8, 0x3F, // wall_time
                         0x10, 0x03,                                    // step
                         0x2A, 0x0A,                                    // summary, 10 bytes
                         0x0A, 0x08,                                    //  value, 8 bytes
                         0x0A, 0x01, 'a',                               //   tag
                         0x15, 0x00, 0x00, 0x00, 0x40})));              //   simple_value 2.0f
    // A step of 300 is a two-byte varint; a step of 0 is left out (proto3 default).
    EXPECT_NE(scalarEvent(1.5, 300, "a", 2.0F).find(bytes({0x10, 0xAC, 0x02})), std::string::npos);
    EXPECT_EQ(scalarEvent(1.5, 0, "a", 2.0F).substr(9, 2), bytes({0x2A, 0x0A}));
}

TEST(TensorBoardEvent, TextEventIsAStringTensorForTheTextPlugin) {
    // Event{wall_time 1.5, summary{value{tag "c", tensor{dtype DT_STRING, tensor_shape {},
    // string_val "hi"}, metadata{plugin_data{plugin_name "text"}}}}}
    EXPECT_EQ(hex(textEvent(1.5, 0, "c", "hi")),
              hex(bytes({0x09, 0,    0,   0,   0,   0,  0, 0xF8, 0x3F, // wall_time
                         0x2A, 0x19,                                   // summary, 25 bytes
                         0x0A, 0x17,                                   //  value, 23 bytes
                         0x0A, 0x01, 'c',                              //   tag
                         0x42, 0x08,                                   //   tensor, 8 bytes
                         0x08, 0x07,                                   //    dtype DT_STRING
                         0x12, 0x00,                         //    tensor_shape {} (scalar)
                         0x42, 0x02, 'h', 'i',               //    string_val
                         0x4A, 0x08,                         //   metadata, 8 bytes
                         0x0A, 0x06,                         //    plugin_data, 6 bytes
                         0x0A, 0x04, 't', 'e', 'x', 't'}))); //     plugin_name
}

TEST(TensorBoardNames, RunNameBecomesOneSafeFolderName) {
    EXPECT_EQ(sanitizeRunName("20261130T010000Z-host-1a2b_cuda:0_x2"),
              "20261130T010000Z-host-1a2b_cuda-0_x2");
    EXPECT_EQ(sanitizeRunName("../etc/passwd"), "..-etc-passwd");
    EXPECT_EQ(sanitizeRunName(".."), "run");
    EXPECT_EQ(sanitizeRunName(""), "run");
    EXPECT_EQ(eventFileName(1764464400, "box"), "events.out.tfevents.1764464400.box");
}

TEST(TensorBoardObserver, WritesConfigStepLossesAndEpochScalarsThenForwards) {
    TempDir dir("devicebench-tb");
    Counter next;
    RunConfig config;
    config.epochs = 2;
    TensorBoardObserver board(config, dir.path().string(), "run:1", &next);
    EXPECT_EQ(board.runDir(), (dir.path() / "run-1").string());

    RunStarted info;
    info.device = "cpu";
    info.threads = 2;
    info.trainImages = 256;
    info.testImages = 64;
    info.stepsPerEpoch = 4;
    info.dataDescription = "a|b";
    board.onRunStarted(info);
    ASSERT_TRUE(board.writeError().empty()) << board.writeError();
    ASSERT_FALSE(board.filePath().empty());
    EXPECT_EQ(fs::path(board.filePath()).parent_path(), dir.path() / "run-1");
    EXPECT_EQ(fs::path(board.filePath()).filename().string().rfind("events.out.tfevents.", 0), 0U);
    // Flushed once started: the file-version and config records are on disk already.
    EXPECT_EQ(readRecords(board.filePath()).size(), 2U);

    board.onStepLosses({{1, 2, 2.25}, {1, 4, 2.0}});
    EpochResult e1{1, 0.5, true, 2.1, 1.75, 0.25, 640.0, {}, {}};
    board.onEpochFinished(e1);
    // Flushed after the epoch: a running TensorBoard sees it.
    EXPECT_EQ(readRecords(board.filePath()).size(), 2U + 2U + 4U);
    board.onStepLosses({{2, 6, 1.5}});
    board.onEpochFinished({2, 0.25, false, 1.5, 1.25, 0.5, 1280.0, {}, {}});
    RunOutcome outcome;
    outcome.status = RunStatus::Finished;
    board.onRunEnded(outcome);
    EXPECT_TRUE(board.writeError().empty()) << board.writeError();

    const auto records = readRecords(board.filePath());
    ASSERT_EQ(records.size(), 2U + 3U + 8U);
    EXPECT_NE(records[0].find("brain.Event:2"), std::string::npos);
    EXPECT_NE(records[1].find("config"), std::string::npos);
    EXPECT_NE(records[1].find("| data | a\\|b |"), std::string::npos); // markdown-escaped
    EXPECT_NE(records[1].find("| threads used | 2 |"), std::string::npos);
    // Each scalar record is exactly scalarEvent(its wall time, step, tag, value).
    struct Scalar {
        std::int64_t step;
        std::string tag;
        float value;
    };
    const std::vector<Scalar> expected = {
        {2, "train/loss", 2.25F},          {4, "train/loss", 2.0F},
        {1, "test/loss", 1.75F},           {1, "test/accuracy", 0.25F},
        {1, "epoch/seconds", 0.5F},        {1, "epoch/images_per_s", 640.0F},
        {6, "train/loss", 1.5F},           {2, "test/loss", 1.25F},
        {2, "test/accuracy", 0.5F},        {2, "epoch/seconds", 0.25F},
        {2, "epoch/images_per_s", 1280.0F}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::string &record = records[2 + i];
        ASSERT_GE(record.size(), 9U);
        ASSERT_EQ(record[0], '\x09') << "record " << 2 + i << " starts with its wall time";
        const double wallTime = wallTimeOf(record);
        EXPECT_GT(wallTime, 1.7e9) << "seconds since 1970";
        const Scalar &x = expected[i];
        EXPECT_EQ(hex(record), hex(scalarEvent(wallTime, x.step, x.tag, x.value)))
            << "record " << 2 + i << ": " << x.tag << " at step " << x.step;
    }
    EXPECT_EQ(next.started, 1);
    EXPECT_EQ(next.steps, 3U);
    EXPECT_EQ(next.epochs, 2);
    EXPECT_EQ(next.ended, 1);
}

TEST(TensorBoardObserver, AFolderThatCannotBeMadeIsReportedAndTheRunGoesOn) {
    TempDir dir("devicebench-tb");
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "not a folder";
    Counter next;
    TensorBoardObserver board(RunConfig{}, file.string(), "run", &next);
    board.onRunStarted(RunStarted{});
    board.onStepLosses({{1, 1, 2.0}});
    board.onEpochFinished(EpochResult{});
    board.onRunEnded(RunOutcome{});
    EXPECT_NE(
        board.writeError().find("cannot create TensorBoard folder " + (file / "run").string()),
        std::string::npos)
        << board.writeError();
    EXPECT_TRUE(board.filePath().empty());
    EXPECT_EQ(next.started, 1);
    EXPECT_EQ(next.steps, 1U);
    EXPECT_EQ(next.epochs, 1);
    EXPECT_EQ(next.ended, 1);
}
