// SPDX-License-Identifier: MIT
// Settings > Prices…: the prices the dashboard works each run's cost out with (cost.h,
// docs/MEASURING.md "Cost"): a table of prices per hour (device match, price, currency,
// source, date) that starts from the shipped one (share/devicebench/prices/prices.json), and a
// price per kWh for machines already paid for. The dialog edits a copy; the window hands the
// accepted settings to the RunStore (RunStore::setCostSettings), so the charts, the Compare box
// and the CSV follow. Kept in QSettings under "prices/" (savePriceSettings).
#pragma once

#include "devicebench/cost.h"

#include <QDialog>
#include <QString>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QTableWidget;

namespace devicebench {

// Object names (tests): pricesTable (columns: device, price per hour, currency, source, date),
// addPriceButton, removePriceButton, restorePricesButton, perKwhEdit, kwhCurrencyEdit,
// pricesNoteLabel, pricesErrorLabel.
class PricesDialog : public QDialog {
    Q_OBJECT

public:
    enum Column { MatchColumn, PriceColumn, CurrencyColumn, SourceColumn, DateColumn };

    // Shows `current` (the store's settings). `defaults`: the shipped table, which "Restore
    // defaults" puts back; `defaultsNote`: "" or why there is none ("no shipped price table:
    // ..."), shown above the table.
    PricesDialog(const CostSettings &current, const PriceTable &defaults,
                 const QString &defaultsNote, QWidget *parent = nullptr);

    // The settings as the dialog shows them (the overrides of `current` kept), or nullopt with
    // `*problem` naming the row and the field: "Row 2, price per hour: '-1' is negative (a price
    // is 0 or more)", "Row 3, device: empty (part of a GPU's name, or cpu)", "Price per kWh:
    // 'abc' is not a number".
    std::optional<CostSettings> settings(QString *problem) const;

    // OK: accepts when settings() reads; otherwise shows the problem in pricesErrorLabel and
    // stays open.
    void accept() override;

    QTableWidget *table() const { return m_table; }
    QLineEdit *perKwhEdit() const { return m_perKwh; }
    QLineEdit *kwhCurrencyEdit() const { return m_kwhCurrency; }
    QLabel *errorLabel() const { return m_error; }

    // Appends a row (empty fields: `price` with its texts) and returns its index.
    int addRow(const DevicePrice &price = DevicePrice());
    // The table's rows replaced by `table`'s prices.
    void setPrices(const PriceTable &table);

private:
    QTableWidget *m_table = nullptr;
    QLineEdit *m_perKwh = nullptr;
    QLineEdit *m_kwhCurrency = nullptr;
    QLabel *m_error = nullptr;
    CostSettings m_current;
    PriceTable m_defaults;
};

// The prices under "prices/" in `settings`: "table" (priceTableJson of the table, only while it
// differs from `defaults`, so that a newer shipped table reaches users who never edited
// theirs), "perKwh" (a number, or "" for none) and "currency" (of the price per kWh).
void savePriceSettings(QSettings &settings, const CostSettings &cost, const PriceTable &defaults);

// What savePriceSettings kept, on `defaults`: the saved table when there is one that
// parsePriceTable reads (else `defaults`, and `*problem`, when not null, says why), the price
// per kWh and its currency.
CostSettings restorePriceSettings(const QSettings &settings, const PriceTable &defaults,
                                  QString *problem = nullptr);

} // namespace devicebench
