// SPDX-License-Identifier: MIT
// The Sweep view's grid form: which models, batch sizes, image sizes, precisions and devices
// (with the CPU's thread counts) a sweep crosses, and each cell's steps, warm-up steps and
// phase-timed steps. It only shows and edits the grid; the panel (sweep_panel.h) asks for the
// sweep.
#pragma once

#include "devicebench/devices.h"
#include "devicebench/sweep.h"

#include <QGroupBox>
#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QFormLayout;
class QLayout;
class QLineEdit;
class QSettings;
class QSpinBox;
class QVBoxLayout;

namespace devicebench {

// "16, 64,256" -> {16, 64, 256}: whole numbers separated by commas (spaces allowed), each once.
// False, with *problem saying "<what>: '<item>' is not a whole number" (or "is given twice",
// or "<what>: none given"), on anything else.
bool parseIntList(const QString &text, const QString &what, std::vector<int> *values,
                  QString *problem);

// The grid `records` come from: their distinct models, batch sizes (ascending), image sizes and
// devices in order of appearance, precisions (fp32, bf16, fp16), and the first record's steps,
// warm-up and phase steps (a folder holds one grid, or cells of grids alike). Its `base` is
// RunConfig's default.
SweepSpec sweepSpecOf(const std::vector<SweepCellRecord> &records);

// Object names (tests): sweepModel_<model> (one check box per kModelNames), sweepBatchSizesEdit,
// sweepImageSize_<pixels> (one per kImageSizes), sweepPrecisionFp32Check,
// sweepPrecisionBf16Check, sweepPrecisionFp16Check, sweepDevice_<device id> (the CPU, then each
// usable device of the last probe), sweepThreadsEdit, sweepStepsSpin, sweepWarmupSpin,
// sweepPhaseStepsSpin.
class SweepForm : public QGroupBox {
    Q_OBJECT

public:
    explicit SweepForm(QWidget *parent = nullptr);

    // The grid as the widgets show it, into *spec (its `base` is left as it is). False with the
    // problems (each naming the setting and the value) when a field does not read or the grid
    // is empty; validateSweepSpec's problem too.
    bool readSpec(SweepSpec *spec, QStringList *problems) const;
    // Puts `spec`'s grid into the widgets (devices the list does not offer are added).
    void setSpec(const SweepSpec &spec);

    // The devices of the last probe: the CPU stays first; each usable GPU gets a check box
    // (unticked); devices that are not usable are left out.
    void setDevices(const std::vector<DeviceInfo> &devices);

    // Under the QSettings keys sweep/* (models, batchSizes, imageSizes, precisions, devices,
    // threads, steps, warmupSteps, phaseSteps). A missing or bad value keeps the widget's.
    void saveSettings(QSettings &settings) const;
    void restoreSettings(const QSettings &settings);

private:
    QLayout *buildModelsRow();           // a check box per model
    QLayout *buildImageSizesRow();       // a check box per image size
    QLayout *buildPrecisionsRow();       // a check box per precision
    QWidget *buildDevices();             // CPU with its thread counts; addDevice adds more
    void addStepRows(QFormLayout *form); // timed, warm-up and phase steps
    QCheckBox *addDevice(const QString &id, const QString &text);
    void restorePrecisions(const QSettings &settings); // sweep/precisions, if it names one

    std::map<std::string, QCheckBox *> m_models;
    std::map<int, QCheckBox *> m_imageSizes;
    std::map<Precision, QCheckBox *> m_precisions;              // fp32, bf16, fp16
    std::vector<std::pair<std::string, QCheckBox *>> m_devices; // id, box; the CPU first
    QVBoxLayout *m_deviceLayout = nullptr;
    QLineEdit *m_batchSizesEdit = nullptr;
    QLineEdit *m_threadsEdit = nullptr;
    QSpinBox *m_stepsSpin = nullptr;
    QSpinBox *m_warmupSpin = nullptr;
    QSpinBox *m_phaseStepsSpin = nullptr;
};

} // namespace devicebench
