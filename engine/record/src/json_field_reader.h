// SPDX-License-Identifier: MIT
// Engine-internal (record): strict reading of typed fields out of parsed JSON for the run
// record codec (run_record_json.cpp). Every error is a RecordError naming the source (a file
// path, or what the caller passes) and the field's path, e.g.
// "run.json: field 'epochs[2].seconds' must be a number".
#pragma once

#include "devicebench/display_text.h"
#include "devicebench/run_record.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace devicebench::detail {

// Reads typed fields out of parsed JSON; every error names the file and the field's path.
class FieldReader {
public:
    explicit FieldReader(std::string source) : m_source(std::move(source)) {}

    const std::string &source() const { return m_source; }

    [[noreturn]] void fail(const std::string &field, const std::string &problem) const {
        throw RecordError(m_source + ": field '" + field + "' " + problem);
    }

    static std::string join(const std::string &prefix, const std::string &key) {
        return prefix.empty() ? key : prefix + "." + key;
    }

    const nlohmann::json &field(const nlohmann::json &object, const char *key,
                                const std::string &prefix) const {
        const auto it = object.find(key);
        if (it == object.end()) {
            fail(join(prefix, key), "is missing");
        }
        return *it;
    }

    const nlohmann::json &object(const nlohmann::json &parent, const char *key,
                                 const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (!v.is_object()) {
            fail(join(prefix, key), "must be an object");
        }
        return v;
    }

    const nlohmann::json &array(const nlohmann::json &parent, const char *key,
                                const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (!v.is_array()) {
            fail(join(prefix, key), "must be an array");
        }
        return v;
    }

    std::string string(const nlohmann::json &parent, const char *key,
                       const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (!v.is_string()) {
            fail(join(prefix, key), "must be a string");
        }
        return visibleText(v.get<std::string>()); // from another machine: shown, never obeyed
    }

    bool boolean(const nlohmann::json &parent, const char *key, const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (!v.is_boolean()) {
            fail(join(prefix, key), "must be true or false");
        }
        return v.get<bool>();
    }

    std::int64_t int64(const nlohmann::json &parent, const char *key, const std::string &prefix,
                       std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                       std::int64_t max = std::numeric_limits<std::int64_t>::max()) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (!v.is_number_integer()) {
            fail(join(prefix, key), "must be a whole number");
        }
        if (v.is_number_unsigned() &&
            v.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail(join(prefix, key), "is out of range (" + v.dump() + ")");
        }
        const auto value = v.get<std::int64_t>();
        if (value < min || value > max) {
            fail(join(prefix, key), "is out of range (" + v.dump() + ")");
        }
        return value;
    }

    int integer(const nlohmann::json &parent, const char *key, const std::string &prefix) const {
        return static_cast<int>(int64(parent, key, prefix, std::numeric_limits<int>::min(),
                                      std::numeric_limits<int>::max()));
    }

    std::uint64_t uint64(const nlohmann::json &parent, const char *key,
                         const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (v.is_number_unsigned()) {
            return v.get<std::uint64_t>();
        }
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
            fail(join(prefix, key), "must be a whole number, 0 or more");
        }
        return static_cast<std::uint64_t>(v.get<std::int64_t>());
    }

    // A number that must be finite: null (how NaN and infinity are written) is refused.
    double finite(const nlohmann::json &parent, const char *key, const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (!v.is_number() || !std::isfinite(v.get<double>())) {
            fail(join(prefix, key), "must be a finite number");
        }
        return v.get<double>();
    }

    // A number that may be unknown: null reads back as NaN (e.g. the loss of a diverged step).
    double numberOrNull(const nlohmann::json &parent, const char *key,
                        const std::string &prefix) const {
        const nlohmann::json &v = field(parent, key, prefix);
        if (v.is_null()) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (!v.is_number()) {
            fail(join(prefix, key), "must be a number or null");
        }
        return v.get<double>();
    }

private:
    std::string m_source;
};

} // namespace devicebench::detail
