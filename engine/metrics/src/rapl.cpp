// SPDX-License-Identifier: MIT
#include "rapl.h"

#include "proc_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>

namespace devicebench::detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A counter file's number; NaN when it cannot be read (the errno in *error) or is not one.
double readMicrojoules(const std::string &path, int *error) {
    const std::string text = readSmallFile(path, error);
    if (*error != 0)
        return kNaN;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || value < 0.0) {
        *error = EINVAL;
        return kNaN;
    }
    return value;
}

std::string unreadable(const std::string &file, int error) {
    std::string why = file + ": " + std::strerror(error);
    if (error == EACCES || error == EPERM)
        why += " (readable by root only since Linux 5.10; allow it with 'sudo chmod o+r "
               "/sys/class/powercap/intel-rapl:*/energy_uj' until the next boot, or a udev "
               "rule: docs/MEASURING.md)";
    return why;
}

// "intel-rapl:0" but not "intel-rapl:0:1".
bool isPackageZone(const std::string &name) {
    const std::string prefix = "intel-rapl:";
    return name.rfind(prefix, 0) == 0 && name.size() > prefix.size() &&
           name.find(':', prefix.size()) == std::string::npos;
}

} // namespace

std::unique_ptr<RaplCounters> RaplCounters::open(const std::string &root, std::string *why) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) {
        *why = "no RAPL counters (" + root + " absent)";
        return nullptr;
    }
    std::vector<std::string> names;
    for (std::filesystem::directory_iterator it(root, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (isPackageZone(name))
            names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    if (names.empty()) {
        *why = "no RAPL counters (no intel-rapl zone in " + root + ")";
        return nullptr;
    }
    auto counters = std::unique_ptr<RaplCounters>(new RaplCounters());
    for (const std::string &name : names) {
        const std::string folder = root + "/" + name;
        Zone zone;
        zone.name = readSmallFile(folder + "/name");
        zone.name.erase(zone.name.find_last_not_of(" \n") + 1);
        if (zone.name.empty())
            zone.name = name;
        zone.energyFile = folder + "/energy_uj";
        int error = 0;
        zone.last = readMicrojoules(zone.energyFile, &error);
        if (error != 0) {
            *why = "RAPL counter unreadable: " + unreadable(zone.energyFile, error);
            return nullptr;
        }
        zone.maxMicrojoules = readMicrojoules(folder + "/max_energy_range_uj", &error);
        if (error != 0)
            zone.maxMicrojoules = 0.0; // a wrap-around then cannot be undone: read() says so
        counters->m_zones.push_back(zone);
    }
    return counters;
}

double RaplCounters::read(std::vector<std::string> *notes) {
    if (m_failed)
        return kNaN;
    double total = 0.0;
    for (Zone &zone : m_zones) {
        int error = 0;
        const double now = readMicrojoules(zone.energyFile, &error);
        std::string problem;
        if (error != 0)
            problem = unreadable(zone.energyFile, error);
        else if (now < zone.last && !(zone.maxMicrojoules > zone.last))
            problem = zone.energyFile + " went down and its max_energy_range_uj is unknown";
        if (!problem.empty()) {
            m_failed = true;
            notes->push_back("cpu energy: " + problem + "; no longer read");
            return kNaN;
        }
        // Below the last reading: the counter passed its range and started again from 0.
        zone.total += now >= zone.last ? now - zone.last : zone.maxMicrojoules - zone.last + now;
        zone.last = now;
        total += zone.total;
    }
    return total / 1e6;
}

std::string RaplCounters::zones() const {
    std::string text;
    for (const Zone &zone : m_zones)
        text += (text.empty() ? "" : ", ") + zone.name;
    return text;
}

} // namespace devicebench::detail
