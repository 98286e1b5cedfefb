// SPDX-License-Identifier: MIT
#include "json_fingerprint.h"

#include "devicebench/display_text.h"
#include "devicebench/run_record.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

using nlohmann::json;

// Reads the fields of one JSON object, naming each in errors as "<where>: field '<path>.<key>'".
class FieldReader {
public:
    FieldReader(const json &object, std::string where, std::string path)
        : m_object(object), m_where(std::move(where)), m_path(std::move(path)) {
        if (!m_object.is_object()) {
            throw RecordError(m_where + ": field '" + m_path + "' must be an object");
        }
    }

    std::string string(const char *key) const {
        const json &value = at(key);
        if (!value.is_string()) {
            fail(key, "must be a string");
        }
        return visibleText(value.get<std::string>()); // from another machine: shown, never obeyed
    }

    bool boolean(const char *key) const {
        const json &value = at(key);
        if (!value.is_boolean()) {
            fail(key, "must be true or false");
        }
        return value.get<bool>();
    }

    std::int64_t integer(const char *key, std::int64_t min, std::int64_t max) const {
        const json &value = at(key);
        if (!value.is_number_integer()) {
            fail(key, "must be a whole number");
        }
        if (value.is_number_unsigned() &&
            value.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail(key, "is out of range");
        }
        const auto number = value.get<std::int64_t>();
        if (number < min || number > max) {
            fail(key, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                          " (got " + std::to_string(number) + ")");
        }
        return number;
    }

    // Absent or null: unset.
    std::optional<bool> optionalBoolean(const char *key) const {
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null()) {
            return std::nullopt;
        }
        if (!it->is_boolean()) {
            fail(key, "must be true, false or null");
        }
        return it->get<bool>();
    }

    int smallInt(const char *key) const {
        return static_cast<int>(integer(key, 0, std::numeric_limits<int>::max()));
    }

    double finiteNonNegative(const char *key) const {
        const json &value = at(key);
        if (!value.is_number() || !std::isfinite(value.get<double>()) ||
            value.get<double>() < 0.0) {
            fail(key, "must be a finite number, 0 or more");
        }
        return value.get<double>();
    }

    const json &array(const char *key) const {
        const json &value = at(key);
        if (!value.is_array()) {
            fail(key, "must be an array");
        }
        return value;
    }

    std::string fieldPath(const std::string &key) const { return m_path + "." + key; }

private:
    const json &at(const char *key) const {
        const auto it = m_object.find(key);
        if (it == m_object.end()) {
            fail(key, "is missing");
        }
        return *it;
    }

    [[noreturn]] void fail(const std::string &key, const std::string &problem) const {
        throw RecordError(m_where + ": field '" + fieldPath(key) + "' " + problem);
    }

    const json &m_object;
    std::string m_where;
    std::string m_path;
};

json pythonJson(const PythonRuntime &py) {
    return {{"python", py.python},
            {"executable", py.executable},
            {"torch", py.torch},
            {"torchvision", py.torchvision},
            {"cuda", py.cuda},
            {"cudnn", py.cudnn},
            {"tensorboard", py.tensorboard},
            {"note", py.note}};
}

PythonRuntime pythonFromJson(const FieldReader &r) {
    PythonRuntime py;
    py.python = r.string("python");
    py.executable = r.string("executable");
    py.torch = r.string("torch");
    py.torchvision = r.string("torchvision");
    py.cuda = r.string("cuda");
    py.cudnn = r.string("cudnn");
    py.tensorboard = r.boolean("tensorboard");
    py.note = r.string("note");
    return py;
}

} // namespace

nlohmann::json toJson(const Fingerprint &fp) {
    json gpus = json::array();
    for (const auto &gpu : fp.gpus) {
        gpus.push_back({{"index", gpu.index},
                        {"name", gpu.name},
                        {"computeMajor", gpu.computeMajor},
                        {"computeMinor", gpu.computeMinor},
                        {"memoryBytes", gpu.memoryBytes}});
    }
    json j = json::object();
    j["hostName"] = fp.hostName;
    j["os"] = fp.os;
    j["cpuModel"] = fp.cpuModel;
    j["physicalCores"] = fp.physicalCores;
    j["logicalCores"] = fp.logicalCores;
    j["cpuQuota"] = fp.cpuQuota;
    j["cpuQuotaCores"] = std::isfinite(fp.cpuQuotaCores) ? fp.cpuQuotaCores : 0.0;
    j["affinity"] = fp.affinity;
    j["affinityCount"] = fp.affinityCount;
    j["ompNumThreads"] = fp.ompNumThreads;
    j["intraOpThreads"] = fp.intraOpThreads;
    j["blasLibrary"] = fp.blasLibrary;
    j["libtorchVersion"] = fp.libtorchVersion;
    j["cudaBuilt"] = fp.cudaBuilt;
    j["cudaRuntimeVersion"] = fp.cudaRuntimeVersion;
    j["cudnnVersion"] = fp.cudnnVersion;
    j["driverVersion"] = fp.driverVersion;
    j["gpus"] = std::move(gpus);
    j["cudnnBenchmark"] = fp.cudnnBenchmark;
    j["tf32Matmul"] = fp.tf32Matmul ? json(*fp.tf32Matmul) : json(nullptr);
    j["tf32Cudnn"] = fp.tf32Cudnn ? json(*fp.tf32Cudnn) : json(nullptr);
    j["appVersion"] = fp.appVersion;
    if (fp.python)
        j["python"] = pythonJson(*fp.python);
    return j;
}

Fingerprint fingerprintFromJson(const nlohmann::json &j, const std::string &where) {
    const FieldReader r(j, where, "fingerprint");
    Fingerprint fp;
    fp.hostName = r.string("hostName");
    fp.os = r.string("os");
    fp.cpuModel = r.string("cpuModel");
    fp.physicalCores = r.smallInt("physicalCores");
    fp.logicalCores = r.smallInt("logicalCores");
    fp.cpuQuota = r.string("cpuQuota");
    fp.cpuQuotaCores = r.finiteNonNegative("cpuQuotaCores");
    fp.affinity = r.string("affinity");
    fp.affinityCount = r.smallInt("affinityCount");
    fp.ompNumThreads = r.string("ompNumThreads");
    fp.intraOpThreads = r.smallInt("intraOpThreads");
    fp.blasLibrary = r.string("blasLibrary");
    fp.libtorchVersion = r.string("libtorchVersion");
    fp.cudaBuilt = r.boolean("cudaBuilt");
    fp.cudaRuntimeVersion = r.string("cudaRuntimeVersion");
    fp.cudnnVersion = r.string("cudnnVersion");
    fp.driverVersion = r.string("driverVersion");
    const json &gpus = r.array("gpus");
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const FieldReader g(gpus[i], where, r.fieldPath("gpus") + "[" + std::to_string(i) + "]");
        GpuInfo gpu;
        gpu.index = g.smallInt("index");
        gpu.name = g.string("name");
        gpu.computeMajor = g.smallInt("computeMajor");
        gpu.computeMinor = g.smallInt("computeMinor");
        gpu.memoryBytes = g.integer("memoryBytes", 0, std::numeric_limits<std::int64_t>::max());
        fp.gpus.push_back(std::move(gpu));
    }
    fp.cudnnBenchmark = r.boolean("cudnnBenchmark");
    // Added after schema 1 was first written: optional; absent or null reads as unset.
    fp.tf32Matmul = r.optionalBoolean("tf32Matmul");
    fp.tf32Cudnn = r.optionalBoolean("tf32Cudnn");
    fp.appVersion = r.string("appVersion");
    // Article-script runs only (absent in the engine's runs and older records).
    if (const auto it = j.find("python"); it != j.end() && !it->is_null())
        fp.python = pythonFromJson(FieldReader(*it, where, r.fieldPath("python")));
    return fp;
}

} // namespace devicebench
