// SPDX-License-Identifier: MIT
// TensorBoard event files (tensorboard.h): CRC-32C, TFRecord framing, a small protobuf encoder
// for the few Event fields used, and the observer that writes a run's scalars.
#include "devicebench/tensorboard.h"

#include "devicebench/version.h"

#include <spdlog/spdlog.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace devicebench {
namespace tensorboard {
namespace {

// Field numbers, from TensorBoard's tensorboard/compat/proto/*.proto (the same as TensorFlow's):
//   Event:            wall_time 1 (double), step 2 (int64), file_version 3 (string),
//                     summary 5 (Summary)
//   Summary:          value 1 (repeated Value)
//   Summary.Value:    tag 1 (string), simple_value 2 (float), tensor 8 (TensorProto),
//                     metadata 9 (SummaryMetadata)
//   SummaryMetadata:  plugin_data 1 (PluginData); PluginData: plugin_name 1 (string)
//   TensorProto:      dtype 1 (DataType enum; DT_STRING = 7), tensor_shape 2
//                     (TensorShapeProto; empty = rank 0), string_val 8 (repeated bytes)
enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };
constexpr std::uint32_t kDtString = 7;
constexpr const char *kFileVersion = "brain.Event:2";

// Builds one message; nested messages are encoded first and appended as bytes.
class Encoder {
public:
    Encoder &varint(std::uint32_t field, std::uint64_t value) {
        key(field, kVarint);
        raw(value);
        return *this;
    }
    Encoder &fixed64(std::uint32_t field, double value) {
        key(field, kFixed64);
        std::uint64_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        littleEndian(bits, 8);
        return *this;
    }
    Encoder &fixed32(std::uint32_t field, float value) {
        key(field, kFixed32);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        littleEndian(bits, 4);
        return *this;
    }
    Encoder &bytes(std::uint32_t field, std::string_view value) {
        key(field, kLengthDelimited);
        raw(value.size());
        m_bytes.append(value);
        return *this;
    }
    std::string take() { return std::move(m_bytes); }

private:
    void key(std::uint32_t field, WireType type) { raw((std::uint64_t{field} << 3U) | type); }
    void raw(std::uint64_t value) {
        while (value >= 0x80U) {
            m_bytes.push_back(static_cast<char>((value & 0x7FU) | 0x80U));
            value >>= 7U;
        }
        m_bytes.push_back(static_cast<char>(value));
    }
    void littleEndian(std::uint64_t value, int count) {
        for (int i = 0; i < count; ++i) {
            m_bytes.push_back(static_cast<char>((value >> (8 * i)) & 0xFFU));
        }
    }
    std::string m_bytes;
};

// An Event with wall_time and (when not 0) step, then the given summary.
std::string summaryEvent(double wallTime, std::int64_t step, const std::string &value) {
    Encoder event;
    event.fixed64(1, wallTime);
    if (step != 0) {
        event.varint(2, static_cast<std::uint64_t>(step));
    }
    event.bytes(5, Encoder().bytes(1, value).take());
    return event.take();
}

std::array<std::uint32_t, 256> makeCrcTable() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1U) != 0 ? (c >> 1U) ^ 0x82F63B78U : c >> 1U;
        }
        table[i] = c;
    }
    return table;
}

void appendLittleEndian(std::string &out, std::uint64_t value, int count) {
    for (int i = 0; i < count; ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFFU));
    }
}

std::string hostName() {
    std::array<char, 256> host{};
    if (::gethostname(host.data(), host.size() - 1) != 0 || host[0] == '\0') {
        return "localhost";
    }
    return host.data();
}

double unixSeconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string cell(const std::string &text) {
    std::string escaped;
    for (char ch : text) {
        if (ch == '|' || ch == '\\') {
            escaped.push_back('\\');
        }
        escaped.push_back(ch == '\n' ? ' ' : ch);
    }
    return escaped;
}

template <typename T> std::string str(const T &value) {
    std::ostringstream s;
    s << value;
    return s.str();
}

} // namespace

std::uint32_t crc32c(std::string_view data) {
    static const std::array<std::uint32_t, 256> table = makeCrcTable();
    std::uint32_t crc = 0xFFFFFFFFU;
    for (char ch : data) {
        crc = table[(crc ^ static_cast<unsigned char>(ch)) & 0xFFU] ^ (crc >> 8U);
    }
    return crc ^ 0xFFFFFFFFU;
}

std::uint32_t maskCrc(std::uint32_t crc) {
    return ((crc >> 15U) | (crc << 17U)) + 0xA282EAD8U; // unsigned: wraps modulo 2^32
}

std::string frameRecord(std::string_view data) {
    std::string record;
    record.reserve(data.size() + 16);
    appendLittleEndian(record, data.size(), 8);
    appendLittleEndian(record, maskCrc(crc32c(record)), 4);
    record.append(data);
    appendLittleEndian(record, maskCrc(crc32c(data)), 4);
    return record;
}

std::string fileVersionEvent(double wallTime) {
    return Encoder().fixed64(1, wallTime).bytes(3, kFileVersion).take();
}

std::string scalarEvent(double wallTime, std::int64_t step, std::string_view tag, float value) {
    return summaryEvent(wallTime, step, Encoder().bytes(1, tag).fixed32(2, value).take());
}

std::string textEvent(double wallTime, std::int64_t step, std::string_view tag,
                      std::string_view text) {
    const std::string metadata = Encoder().bytes(1, Encoder().bytes(1, "text").take()).take();
    const std::string tensor = Encoder().varint(1, kDtString).bytes(2, "").bytes(8, text).take();
    return summaryEvent(wallTime, step,
                        Encoder().bytes(1, tag).bytes(8, tensor).bytes(9, metadata).take());
}

std::string eventFileName(std::int64_t unixSeconds, const std::string &host) {
    return "events.out.tfevents." + std::to_string(unixSeconds) + "." + host;
}

std::string sanitizeRunName(const std::string &name) {
    std::string safe = name;
    bool onlyDots = true;
    for (char &ch : safe) {
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        if (!ok) {
            ch = '-';
        }
        onlyDots = onlyDots && ch == '.';
    }
    return onlyDots ? std::string("run") : safe;
}

std::string configMarkdown(const RunConfig &config, const RunStarted &info) {
    std::string text = "| setting | value |\n| --- | --- |\n";
    auto row = [&text](const char *key, const std::string &value) {
        text += std::string("| ") + key + " | " + cell(value) + " |\n";
    };
    row("DeviceBench", kVersion);
    row("device", config.device);
    row("device used", info.device + (info.deviceName.empty() ? "" : " (" + info.deviceName + ")"));
    row("threads", config.threads == 0 ? "all cores" : std::to_string(config.threads));
    row("threads used", std::to_string(info.threads));
    row("epochs", std::to_string(config.epochs));
    row("warm-up epochs", std::to_string(config.warmupEpochs));
    row("batch size", std::to_string(config.batchSize));
    row("learning rate", str(config.learningRate));
    row("seed", std::to_string(config.seed));
    row("workload", toString(config.workload));
    row("data", info.dataDescription);
    row("training images", std::to_string(info.trainImages));
    row("test images", std::to_string(info.testImages));
    row("steps per epoch", std::to_string(info.stepsPerEpoch));
    row("step losses every", std::to_string(config.lossFetchInterval) + " steps");
    return text;
}

} // namespace tensorboard

// ---- EventFileWriter -------------------------------------------------------------------------

EventFileWriter::EventFileWriter(const std::string &runDir) {
    std::error_code ec;
    std::filesystem::create_directories(runDir, ec);
    if (ec || !std::filesystem::is_directory(runDir)) {
        throw TensorBoardError("cannot create TensorBoard folder " + runDir + ": " +
                               (ec ? ec.message() : std::string("not a folder")));
    }
    const double now = tensorboard::unixSeconds();
    m_path = (std::filesystem::path(runDir) /
              tensorboard::eventFileName(static_cast<std::int64_t>(now),
                                         tensorboard::sanitizeRunName(tensorboard::hostName())))
                 .string();
    m_file = std::fopen(m_path.c_str(), "ab");
    if (m_file == nullptr) {
        throw TensorBoardError("cannot write TensorBoard event file " + m_path + ": " +
                               std::strerror(errno));
    }
    write(tensorboard::fileVersionEvent(now));
}

EventFileWriter::~EventFileWriter() {
    if (m_file != nullptr) {
        std::fclose(m_file);
    }
}

void EventFileWriter::addScalar(std::int64_t step, std::string_view tag, float value) {
    write(tensorboard::scalarEvent(tensorboard::unixSeconds(), step, tag, value));
}

void EventFileWriter::addText(std::int64_t step, std::string_view tag, std::string_view text) {
    write(tensorboard::textEvent(tensorboard::unixSeconds(), step, tag, text));
}

void EventFileWriter::flush() {
    if (std::fflush(m_file) != 0) {
        throw TensorBoardError("cannot write TensorBoard event file " + m_path + ": " +
                               std::strerror(errno));
    }
}

void EventFileWriter::write(const std::string &event) {
    const std::string record = tensorboard::frameRecord(event);
    if (std::fwrite(record.data(), 1, record.size(), m_file) != record.size()) {
        throw TensorBoardError("cannot write TensorBoard event file " + m_path + ": " +
                               std::strerror(errno));
    }
}

// ---- TensorBoardObserver ---------------------------------------------------------------------

TensorBoardObserver::TensorBoardObserver(const RunConfig &config, std::string logDir,
                                         const std::string &runName, TrainingObserver *next)
    : m_config(config),
      m_runDir((std::filesystem::path(std::move(logDir)) / tensorboard::sanitizeRunName(runName))
                   .string()),
      m_next(next) {}

TensorBoardObserver::~TensorBoardObserver() = default;

template <typename F> void TensorBoardObserver::guarded(F &&action) {
    if (!m_writeError.empty()) {
        return; // after the first failure, stop trying (one message, not one per step)
    }
    try {
        action();
    } catch (const std::exception &e) {
        m_writeError = e.what();
        spdlog::error("{}", m_writeError);
        m_writer.reset();
    }
}

void TensorBoardObserver::onRunStarted(const RunStarted &info) {
    guarded([&] {
        m_writer = std::make_unique<EventFileWriter>(m_runDir);
        m_filePath = m_writer->path();
        m_writer->addText(0, "config", tensorboard::configMarkdown(m_config, info));
        m_writer->flush();
    });
    if (m_next != nullptr) {
        m_next->onRunStarted(info);
    }
}

void TensorBoardObserver::onStepLosses(const std::vector<StepLoss> &losses) {
    if (m_writer) {
        guarded([&] {
            for (const StepLoss &l : losses) {
                m_writer->addScalar(l.step, "train/loss", static_cast<float>(l.loss));
            }
        });
    }
    if (m_next != nullptr) {
        m_next->onStepLosses(losses);
    }
}

void TensorBoardObserver::onEpochFinished(const EpochResult &e) {
    if (m_writer) {
        guarded([&] {
            m_writer->addScalar(e.epoch, "test/loss", static_cast<float>(e.testLoss));
            m_writer->addScalar(e.epoch, "test/accuracy", static_cast<float>(e.testAccuracy));
            m_writer->addScalar(e.epoch, "epoch/seconds", static_cast<float>(e.seconds));
            m_writer->addScalar(e.epoch, "epoch/images_per_s",
                                static_cast<float>(e.imagesPerSecond));
            m_writer->flush();
        });
    }
    if (m_next != nullptr) {
        m_next->onEpochFinished(e);
    }
}

void TensorBoardObserver::onRunEnded(const RunOutcome &outcome) {
    if (m_writer) {
        guarded([&] { m_writer->flush(); });
        m_writer.reset();
    }
    if (m_next != nullptr) {
        m_next->onRunEnded(outcome);
    }
}

} // namespace devicebench
