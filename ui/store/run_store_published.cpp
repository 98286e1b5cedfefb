// SPDX-License-Identifier: MIT
// RunStore's published results (run_store.h): the sets the views draw beside the runs.
#include "store/run_store.h"

#include <utility>
#include <vector>

namespace devicebench {

void RunStore::setPublished(std::vector<PublishedSet> sets) {
    m_published = std::move(sets);
    Q_EMIT changed();
}

void RunStore::setPublishedShown(bool shown) {
    if (shown == m_publishedShown)
        return;
    m_publishedShown = shown;
    Q_EMIT changed();
}

PublishedBeside RunStore::publishedRows() const {
    if (!m_publishedShown || m_published.empty() || !publishedBelongsBeside(m_set))
        return {};
    return publishedBeside(m_published, m_set);
}

} // namespace devicebench
