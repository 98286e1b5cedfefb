// SPDX-License-Identifier: MIT
#include "devicebench/workloads.h"

#include <cstddef>
#include <stdexcept>

namespace devicebench {

const WorkloadRow &workloadRow(Workload workload) {
    for (const WorkloadRow &row : kWorkloads)
        if (row.id == workload)
            return row;
    throw std::logic_error("a Workload without a row in kWorkloads");
}

const WorkloadRow *findWorkload(const std::string &name) {
    for (const WorkloadRow &row : kWorkloads)
        if (name == row.name)
            return &row;
    return nullptr;
}

std::vector<std::string> workloadNames(bool (*keep)(const WorkloadRow &)) {
    std::vector<std::string> names;
    for (const WorkloadRow &row : kWorkloads)
        if (keep == nullptr || keep(row))
            names.emplace_back(row.name);
    return names;
}

std::string workloadChoices(bool (*keep)(const WorkloadRow &)) {
    const std::vector<std::string> names = workloadNames(keep);
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            text += i + 1 == names.size() ? " or " : ", ";
        text += names[i];
    }
    return text;
}

const char *toString(Workload workload) { return workloadRow(workload).name; }

bool parseWorkload(const std::string &text, Workload *workload) {
    const WorkloadRow *row = findWorkload(text);
    if (row != nullptr)
        *workload = row->id;
    return row != nullptr;
}

} // namespace devicebench
