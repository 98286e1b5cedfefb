// SPDX-License-Identifier: MIT
// Price tables as JSON (cost.h): read strictly, every error naming the file, the field and the
// value.
#include "devicebench/cost.h"
#include "devicebench/display_text.h"
#include "devicebench/json_error.h"
#include "devicebench/text_file.h"

#include "ascii_case.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace devicebench {
namespace {

using Json = nlohmann::json;

constexpr const char *kFormat = "devicebench-prices";
constexpr int kVersion = 1;

class Reader {
public:
    explicit Reader(std::string source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const std::string &field, const std::string &problem) const {
        throw PriceError(m_source + ": field '" + field + "' " + problem);
    }

    const Json &field(const Json &object, const std::string &path) const {
        const auto it = object.find(leaf(path));
        if (it == object.end())
            fail(path, "is missing");
        return *it;
    }

    std::string string(const Json &object, const std::string &path) const {
        const Json &v = field(object, path);
        if (!v.is_string())
            fail(path, "must be a string (got " + v.dump() + ")");
        std::string text = v.get<std::string>();
        // Shown in terminals and pictures: a shared file must not carry escape sequences.
        if (std::any_of(text.begin(), text.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20U || c == 0x7F; }))
            fail(path, "must not hold control characters (newlines, escapes)");
        return visibleText(text); // bidirectional formatting characters shown, never obeyed
    }

    std::string optionalString(const Json &object, const std::string &path) const {
        return object.contains(leaf(path)) ? string(object, path) : std::string();
    }

    double price(const Json &object, const std::string &path) const {
        const Json &v = field(object, path);
        if (!v.is_number())
            fail(path, "must be a number (got " + v.dump() + ")");
        const double value = v.get<double>();
        if (!std::isfinite(value))
            fail(path, "must be a finite number (got " + v.dump() + ")");
        if (value < 0.0)
            fail(path, "must be 0 or more (got " + v.dump() + ")");
        return value;
    }

private:
    static std::string leaf(const std::string &path) {
        const auto dot = path.rfind('.');
        return dot == std::string::npos ? path : path.substr(dot + 1);
    }

    std::string m_source;
};

DevicePrice readEntry(const Reader &reader, const Json &entry, const std::string &at) {
    if (!entry.is_object())
        reader.fail(at, "must be an object");
    DevicePrice price;
    price.match = reader.string(entry, at + ".match");
    if (price.match.empty())
        reader.fail(at + ".match", "must not be empty");
    price.perHour = reader.price(entry, at + ".pricePerHour");
    price.currency = reader.string(entry, at + ".currency");
    price.source = reader.string(entry, at + ".source");
    price.date = reader.string(entry, at + ".date");
    price.note = reader.optionalString(entry, at + ".note");
    return price;
}

} // namespace

PriceTable parsePriceTable(const std::string &text, const std::string &source) {
    Json document;
    try {
        document = Json::parse(text);
    } catch (const Json::exception &e) { // a syntax error, or a number beyond a double's range
        throw PriceError(source + ": not JSON: " + jsonErrorText(e));
    }
    const Reader reader(source);
    if (!document.is_object())
        throw PriceError(source + ": not a price table (the document must be an object)");
    const Json &format = reader.field(document, "format");
    if (format != kFormat)
        reader.fail("format",
                    "must be \"" + std::string(kFormat) + "\" (got " + format.dump() + ")");
    const Json &version = reader.field(document, "version");
    if (version != kVersion)
        reader.fail("version",
                    "must be " + std::to_string(kVersion) + " (got " + version.dump() + ")");
    PriceTable table;
    table.file = source;
    table.note = reader.optionalString(document, "note");
    const Json &prices = reader.field(document, "prices");
    if (!prices.is_array())
        reader.fail("prices", "must be an array");
    for (std::size_t i = 0; i < prices.size(); ++i) {
        const std::string at = "prices[" + std::to_string(i) + "]";
        DevicePrice price = readEntry(reader, prices[i], at);
        // Two entries for one name: which one applies would be the order's accident.
        const auto same =
            std::find_if(table.prices.begin(), table.prices.end(), [&price](const DevicePrice &p) {
                return detail::lowerAscii(p.match) == detail::lowerAscii(price.match);
            });
        if (same != table.prices.end())
            reader.fail(at + ".match", "repeats prices[" +
                                           std::to_string(same - table.prices.begin()) + "]'s \"" +
                                           same->match + "\"");
        table.prices.push_back(std::move(price));
    }
    return table;
}

// Larger files are refused unread: a price table is a few kilobytes.
constexpr std::size_t kMaxPriceTableBytes = 1024 * 1024;

PriceTable readPriceTable(const std::string &path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw PriceError(path + ": is a folder, not a price table (a JSON file)");
    const TextFile file = readTextFile(path, kMaxPriceTableBytes);
    if (file.state == FileState::Absent)
        throw PriceError(path + ": does not exist");
    if (file.state == FileState::Unreadable)
        throw PriceError(path + ": exists but cannot be read (" + file.reason + ")");
    return parsePriceTable(file.text, path); // malformed: what is wrong, where
}

std::string priceTableJson(const PriceTable &table) {
    using Ordered = nlohmann::ordered_json; // the fields in the order a person reads them
    Ordered prices = Ordered::array();
    for (const DevicePrice &p : table.prices) {
        Ordered entry = {{"match", p.match},
                         {"pricePerHour", p.perHour},
                         {"currency", p.currency},
                         {"source", p.source},
                         {"date", p.date}};
        if (!p.note.empty())
            entry["note"] = p.note;
        prices.push_back(std::move(entry));
    }
    Ordered document = {{"format", kFormat}, {"version", kVersion}};
    if (!table.note.empty())
        document["note"] = table.note;
    document["prices"] = std::move(prices);
    return document.dump(2) + "\n";
}

} // namespace devicebench
