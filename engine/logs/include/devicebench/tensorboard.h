// SPDX-License-Identifier: MIT
// TensorBoard event files, written without TensorFlow or libprotobuf: a run's scalars and its
// settings, readable by `tensorboard --logdir DIR` while the run goes.
// LibTorch- and Qt-free header.
//
// File layout (TensorFlow's record I/O, tensorflow/core/lib/io/record_writer.cc): a sequence of
// records, each
//   uint64 length (little-endian) | uint32 masked CRC-32C of those 8 bytes |
//   `length` bytes of data      | uint32 masked CRC-32C of the data
// where every data block is one serialised `tensorboard.Event` message (TensorBoard's
// tensorboard/compat/proto/event.proto and summary.proto; the field numbers used are listed in
// tensorboard.cpp and copied in tests/tensorboard/proto/). The first record is the file-version
// event ("brain.Event:2").
//
// What a run writes (TensorBoardObserver), under DIR/<run name>/events.out.tfevents.<unix
// seconds>.<host>:
//   step 0          text    "config"              the run's settings (markdown table)
//   every step loss scalar  "train/loss"          step = the global training step (from 1)
//   every epoch     scalar  "test/loss"           step = the epoch number (from 1)
//                   scalar  "test/accuracy"       a fraction, 0..1
//                   scalar  "epoch/seconds"       training + test pass, seconds
//                   scalar  "epoch/images_per_s"  (training + test images) / seconds
// Scalars are float32 (TensorBoard's simple_value). Step losses arrive every K steps
// (RunConfig::lossFetchInterval); each is written with its own step. The file is flushed after
// the run has started, after every epoch and at the end, so a running TensorBoard shows each
// epoch as it finishes.
#pragma once

#include "devicebench/run_types.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace devicebench {

// A file or folder of an event log could not be made or written; what() names the path and
// the system's error, e.g. "cannot create TensorBoard folder /x/run: Permission denied".
class TensorBoardError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

namespace tensorboard {

// CRC-32C (Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78; initial value and final xor
// 0xFFFFFFFF), as iSCSI uses it (RFC 3720, appendix B.4: 32 zero bytes -> 0x8A9136AA).
std::uint32_t crc32c(std::string_view data);

// TFRecord's masking of a CRC (stored CRCs of data that holds CRCs are then not trivially
// related): ((crc >> 15) | (crc << 17)) + 0xa282ead8, modulo 2^32.
std::uint32_t maskCrc(std::uint32_t crc);

// One record framed as above: 8 + 4 + data.size() + 4 bytes.
std::string frameRecord(std::string_view data);

// Serialised tensorboard.Event messages (fields in number order, as protobuf writes them; a
// step of 0 is left out, proto3's default). `wallTime` is seconds since the Unix epoch;
// `step` >= 0.
//   file version: {wall_time, file_version = "brain.Event:2"}
std::string fileVersionEvent(double wallTime);
//   scalar: {wall_time, step, summary {value {tag, simple_value}}}
std::string scalarEvent(double wallTime, std::int64_t step, std::string_view tag, float value);
//   text, as TensorBoard's text plugin reads it: {wall_time, step, summary {value {tag,
//   metadata {plugin_data {plugin_name "text"}}, tensor {dtype DT_STRING, tensor_shape {}
//   (a scalar), string_val [text]}}}}. `text` is shown as markdown.
std::string textEvent(double wallTime, std::int64_t step, std::string_view tag,
                      std::string_view text);

// "events.out.tfevents.<unixSeconds>.<host>", TensorFlow's naming (TensorBoard finds event
// files by the "tfevents" in the name).
std::string eventFileName(std::int64_t unixSeconds, const std::string &host);

// `name` made safe as one folder name: characters other than letters, digits, '.', '_' and '-'
// become '-'; an empty name or one of only dots becomes "run".
std::string sanitizeRunName(const std::string &name);

// The markdown table written as the "config" text: one "| setting | value |" row per RunConfig
// field and per RunStarted field (device used, threads, image counts, steps per epoch, data).
std::string configMarkdown(const RunConfig &config, const RunStarted &info);

} // namespace tensorboard

// One event file. Not thread-safe: one writer per run, used from the run's thread.
class EventFileWriter {
public:
    // Creates `runDir` (and its parents) if missing, opens runDir/eventFileName(now, host)
    // for appending (a new file; an existing one of the same name is appended to, as
    // TensorFlow does) and writes the file-version record. Throws TensorBoardError naming the
    // folder or file and the system's error.
    explicit EventFileWriter(const std::string &runDir);
    ~EventFileWriter(); // flushes and closes
    EventFileWriter(const EventFileWriter &) = delete;
    EventFileWriter &operator=(const EventFileWriter &) = delete;

    // Append one record each, stamped with the current wall time. Throw TensorBoardError
    // naming the file when the write fails.
    void addScalar(std::int64_t step, std::string_view tag, float value);
    void addText(std::int64_t step, std::string_view tag, std::string_view text);
    // Hands the written records to the operating system (fflush). Throws TensorBoardError.
    void flush();

    const std::string &path() const { return m_path; }

private:
    void write(const std::string &event);
    std::string m_path;
    std::FILE *m_file = nullptr;
};

// A TrainingObserver that writes the run's event file under logDir/sanitizeRunName(runName)
// (see the top of this header) and forwards every event to `next` (may be null). The file is
// opened at onRunStarted: a run that fails before it starts leaves no folder. Write errors do
// not stop the run: the first is kept in writeError() (and logged), and nothing more is written.
class TensorBoardObserver : public TrainingObserver {
public:
    TensorBoardObserver(const RunConfig &config, std::string logDir, const std::string &runName,
                        TrainingObserver *next = nullptr);
    ~TensorBoardObserver() override;
    void onRunStarted(const RunStarted &info) override;
    void onStepLosses(const std::vector<StepLoss> &losses) override;
    void onEpochFinished(const EpochResult &epoch) override;
    void onRunEnded(const RunOutcome &outcome) override;

    // logDir/<sanitised run name>.
    const std::string &runDir() const { return m_runDir; }
    // The event file's path; empty until onRunStarted has opened it.
    const std::string &filePath() const { return m_filePath; }
    // "" while every write succeeded.
    const std::string &writeError() const { return m_writeError; }

private:
    template <typename F> void guarded(F &&action);
    RunConfig m_config;
    std::string m_runDir;
    std::string m_filePath;
    std::string m_writeError;
    TrainingObserver *m_next;
    std::unique_ptr<EventFileWriter> m_writer;
};

} // namespace devicebench
