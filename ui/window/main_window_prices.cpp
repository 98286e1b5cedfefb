// SPDX-License-Identifier: MIT
// The prices part of MainWindow: the shipped table, Settings > Prices… and the prices kept
// through QSettings (prices_dialog.h).
#include "window/main_window.h"

#include "dialogs/prices_dialog.h"
#include "store/run_store.h"

#include <QSettings>

#include <optional>
#include <utility>

namespace devicebench {

void MainWindow::setShippedPrices(const PriceTable &table, const QString &note) {
    m_shippedPrices = table;
    m_shippedPricesNote = note;
    CostSettings settings = m_store->costSettings();
    settings.table = table;
    m_store->setCostSettings(std::move(settings));
}

PricesDialog *MainWindow::openPricesDialog() {
    auto *dialog =
        new PricesDialog(m_store->costSettings(), m_shippedPrices, m_shippedPricesNote, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QString problem;
        if (std::optional<CostSettings> settings = dialog->settings(&problem)) {
            m_store->setCostSettings(std::move(*settings));
            redrawNow(); // the bars, the Compare box and the next CSV follow at once
            setStatus(QStringLiteral("Prices changed: the costs follow them."), false);
        }
    });
    dialog->open();
    return dialog;
}

void MainWindow::savePrices(QSettings &settings) const {
    savePriceSettings(settings, m_store->costSettings(), m_shippedPrices);
}

void MainWindow::restorePrices(const QSettings &settings) {
    QString problem;
    m_store->setCostSettings(restorePriceSettings(settings, m_shippedPrices, &problem));
    if (!problem.isEmpty())
        setStatus(QStringLiteral("Saved prices not used (the shipped ones instead): ") + problem,
                  true);
}

} // namespace devicebench
