// SPDX-License-Identifier: MIT
// Fuzz target: the run-record parser (parseRunRecord, what readRunRecord calls on a file's
// text) on arbitrary text. Every input must either be rejected with a RecordError whose
// message starts with the file name, or be accepted; what is accepted must survive a round
// trip: toJson() of it parses again, and writing that gives the same text. Anything else
// aborts: a crash, a sanitizer report, another exception type, or a record that does not
// read back.
#include "devicebench/run_record.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr const char *kSource = "fuzz.json";

[[noreturn]] void failCheck(const char *what, const std::string &detail = {}) {
    std::fprintf(stderr, "fuzz_run_record: %s %s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    devicebench::RunRecord record;
    try {
        record = devicebench::parseRunRecord(text, kSource);
    } catch (const devicebench::RecordError &e) {
        if (std::string(e.what()).rfind(kSource, 0) != 0) {
            failCheck("a RecordError does not start with the file name:", e.what());
        }
        return 0;
    }
    const std::string written = devicebench::toJson(record);
    devicebench::RunRecord again;
    try {
        again = devicebench::parseRunRecord(written, "round trip");
    } catch (const devicebench::RecordError &e) {
        failCheck("an accepted record does not read back after toJson():", e.what());
    }
    if (devicebench::toJson(again) != written) {
        failCheck("an accepted record changes on a second round trip:", written);
    }
    return 0;
}
