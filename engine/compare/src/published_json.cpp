// SPDX-License-Identifier: MIT
// Reference files of published results (docs/published-results.md): read strictly, every error
// naming the file and the field.
#include "devicebench/display_text.h"
#include "devicebench/json_error.h"
#include "devicebench/published.h"
#include "devicebench/text_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

namespace devicebench {
namespace {

using Json = nlohmann::json;

std::string shown(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

// Typed fields out of parsed JSON; every error names the file and the field's path.
class Reader {
public:
    explicit Reader(std::string source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const std::string &field, const std::string &problem) const {
        throw PublishedError(m_source + ": field '" + field + "' " + problem);
    }

    const Json &field(const Json &object, const std::string &prefix, const char *key) const {
        const auto it = object.find(key);
        if (it == object.end())
            fail(path(prefix, key), "is missing");
        return *it;
    }

    const Json &object(const Json &parent, const std::string &prefix, const char *key) const {
        const Json &v = field(parent, prefix, key);
        if (!v.is_object())
            fail(path(prefix, key), "must be an object");
        return v;
    }

    std::string string(const Json &parent, const std::string &prefix, const char *key) const {
        const Json &v = field(parent, prefix, key);
        if (!v.is_string())
            fail(path(prefix, key), "must be a string");
        std::string text = v.get<std::string>();
        // Shown in terminals and pictures: a shared file must not carry escape sequences.
        if (std::any_of(text.begin(), text.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20U || c == 0x7F; }))
            fail(path(prefix, key), "must not hold control characters (newlines, escapes)");
        return visibleText(text); // bidirectional formatting characters shown, never obeyed
    }

    // A whole number of at least `min`.
    std::int64_t count(const Json &parent, const std::string &prefix, const char *key,
                       std::int64_t min) const {
        const Json &v = field(parent, prefix, key);
        if (!v.is_number_integer())
            fail(path(prefix, key), "must be a whole number");
        if (v.is_number_unsigned() &&
            v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
            fail(path(prefix, key), "is out of range (" + v.dump() + ")");
        const auto value = v.get<std::int64_t>();
        if (value < min)
            fail(path(prefix, key), "must be at least " + std::to_string(min) + " (got " +
                                        std::to_string(value) + ")");
        return value;
    }

    // Seconds of an epoch: from a millisecond to a million seconds (11.6 days), what a table
    // of epochs can hold and show.
    double seconds(const Json &v, const std::string &field) const {
        const double value = positive(v, field);
        if (value < 1e-3 || value > 1e6)
            fail(field, "must be between 0.001 and 1000000 seconds (got " + shown(value) + ")");
        return value;
    }

    // A finite number above 0 (seconds, a learning rate).
    double positive(const Json &v, const std::string &field) const {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            fail(field, "must be a finite number");
        if (v.get<double>() <= 0.0)
            fail(field, "must be above 0 (got " + shown(v.get<double>()) + ")");
        return v.get<double>();
    }

    static std::string path(const std::string &prefix, const char *key) {
        return prefix.empty() ? std::string(key) : prefix + "." + key;
    }

private:
    std::string m_source;
};

void readSchemaVersion(const Reader &r, const Json &j) {
    const std::int64_t version = r.count(j, "", "schemaVersion", 1);
    if (version > kPublishedSchemaVersion)
        r.fail("schemaVersion", "is " + std::to_string(version) +
                                    ", newer than this version of DeviceBench reads (" +
                                    std::to_string(kPublishedSchemaVersion) + ")");
    if (version < kPublishedSchemaVersion)
        r.fail("schemaVersion",
               "is " + std::to_string(version) + ", older than this version reads");
}

PublishedSource readSource(const Reader &r, const Json &j) {
    const std::string p = "source";
    PublishedSource s;
    s.title = r.string(j, p, "title");
    s.shortName = r.string(j, p, "shortName");
    s.note = r.string(j, p, "note");
    s.program = r.string(j, p, "program");
    if (j.contains("url"))
        s.url = r.string(j, p, "url");
    for (const auto &[text, key] : {std::pair{&s.shortName, "shortName"}, {&s.program, "program"}})
        if (text->empty())
            r.fail(Reader::path(p, key), "must not be empty");
    return s;
}

PublishedSettings readSettings(const Reader &r, const Json &j) {
    const std::string p = "settings";
    PublishedSettings s;
    s.model = r.string(j, p, "model");
    s.batchSize = static_cast<int>(r.count(j, p, "batchSize", 1));
    s.epochs = static_cast<int>(r.count(j, p, "epochs", 1));
    s.warmupEpochs = static_cast<int>(r.count(j, p, "warmupEpochs", 0));
    if (s.warmupEpochs >= s.epochs)
        r.fail(p + ".warmupEpochs", "must be below the epochs (" + std::to_string(s.epochs) +
                                        "), or no epoch is stable");
    s.learningRate = r.positive(r.field(j, p, "learningRate"), p + ".learningRate");
    const std::string precision = r.string(j, p, "precision");
    if (!parsePrecision(precision, &s.precision))
        r.fail(p + ".precision", "must be fp32, bf16 or fp16 (got '" + precision + "')");
    s.imageSize = static_cast<int>(r.count(j, p, "imageSize", 1));
    if (!isSupportedImageSize(s.imageSize))
        r.fail(p + ".imageSize", "must be 32, 64 or 128 (got " + std::to_string(s.imageSize) + ")");
    s.trainImages = r.count(j, p, "trainImages", 1);
    s.testImages = r.count(j, p, "testImages", 1);
    return s;
}

PublishedRow readRow(const Reader &r, const Json &j, const std::string &p, int epochs) {
    if (!j.is_object())
        r.fail(p, "must be an object");
    PublishedRow row;
    row.device = r.string(j, p, "device");
    row.deviceKind = r.string(j, p, "deviceKind");
    if (row.deviceKind != "cuda" && row.deviceKind != "cpu")
        r.fail(p + ".deviceKind", "must be cuda or cpu (got '" + row.deviceKind + "')");
    row.where = r.string(j, p, "where");
    row.stableMeanSeconds = r.seconds(r.field(j, p, "stableMeanSeconds"), p + ".stableMeanSeconds");
    if (!j.contains("epochSeconds") || j.at("epochSeconds").is_null())
        return row; // none published
    const Json &epochSeconds = j.at("epochSeconds");
    if (!epochSeconds.is_array())
        r.fail(p + ".epochSeconds", "must be an array or null");
    if (!epochSeconds.empty() && static_cast<int>(epochSeconds.size()) != epochs)
        r.fail(p + ".epochSeconds", "must hold one number per epoch (" + std::to_string(epochs) +
                                        "), got " + std::to_string(epochSeconds.size()));
    for (std::size_t i = 0; i < epochSeconds.size(); ++i)
        row.epochSeconds.push_back(
            r.seconds(epochSeconds[i], p + ".epochSeconds[" + std::to_string(i) + "]"));
    return row;
}

} // namespace

PublishedSet parsePublished(const std::string &json, const std::string &source) {
    Json j;
    try {
        j = Json::parse(json);
    } catch (const Json::parse_error &e) {
        throw PublishedError(source + ": not valid JSON (" + jsonErrorText(e) + ")");
    }
    const Reader r(source);
    if (!j.is_object())
        throw PublishedError(source + ": not a published-results file (the top is not an object)");
    readSchemaVersion(r, j);
    PublishedSet set;
    set.file = source;
    set.source = readSource(r, r.object(j, "", "source"));
    set.settings = readSettings(r, r.object(j, "", "settings"));
    const Json &rows = r.field(j, "", "rows");
    if (!rows.is_array())
        r.fail("rows", "must be an array");
    if (rows.empty())
        r.fail("rows", "must hold at least one row");
    for (std::size_t i = 0; i < rows.size(); ++i)
        set.rows.push_back(
            readRow(r, rows[i], "rows[" + std::to_string(i) + "]", set.settings.epochs));
    return set;
}

PublishedSet readPublished(const std::string &path) {
    const TextFile file = readTextFile(path, static_cast<std::size_t>(kMaxPublishedBytes));
    if (file.state == FileState::Absent)
        throw PublishedError(path + ": does not exist");
    if (file.state == FileState::Unreadable)
        throw PublishedError(path + ": exists but cannot be read (" + file.reason + ")");
    return parsePublished(file.text, path); // malformed: what is wrong, where
}

} // namespace devicebench
