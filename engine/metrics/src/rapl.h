// SPDX-License-Identifier: MIT
// Engine-internal (metrics): the CPU packages' energy from Linux powercap (RAPL), Intel and AMD
// Zen alike: the top-level zones <root>/intel-rapl:N (one per package; their sub-zones
// intel-rapl:N:M are parts of the package and are not added). Plain C++.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace devicebench::detail {

class RaplCounters {
public:
    // The package zones under `root` (normally /sys/class/powercap), each read once. nullptr
    // with *why when there is none or one cannot be read: "no RAPL counters (/sys/class/powercap
    // absent)", "... (no intel-rapl zone in ...)", or, for a counter only root may read (Linux
    // 5.10 and later), what the file is and how to allow reading it.
    static std::unique_ptr<RaplCounters> open(const std::string &root, std::string *why);

    // Joules of every package since open(), wrap-arounds undone (a counter that went down
    // wrapped at its max_energy_range_uj). NaN after a read failed: that read appends one note
    // to *notes ("cpu energy: <file> unreadable: <error>; no longer read") and the counters are
    // not read again. Not thread-safe: the sampler's thread only.
    double read(std::vector<std::string> *notes);

    // "package-0, package-1": what the joules count.
    std::string zones() const;

private:
    struct Zone {
        std::string name;
        std::string energyFile;
        double maxMicrojoules = 0.0;
        double last = 0.0;
        double total = 0.0; // microjoules since open
    };
    std::vector<Zone> m_zones;
    bool m_failed = false;
};

} // namespace devicebench::detail
