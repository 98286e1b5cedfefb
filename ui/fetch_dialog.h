// SPDX-License-Identifier: MIT
// "Get CIFAR-10…" and "Open archive…": a dialog that runs fetchCifar10() (devicebench/fetch.h)
// on a worker thread and shows its progress (phase, bar, bytes, rate, time left) with a
// Cancel button. The source URL and the expected MD5 are settings (QSettings "fetch/url",
// "fetch/md5"; mirrors), remembered when a download starts.
#pragma once

#include "devicebench/fetch.h"
#include "main_thread_queue.h"

#include <QDialog>
#include <QMetaType>
#include <QString>

#include <atomic>
#include <thread>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace devicebench {

// Object names for tests: urlEdit, md5Edit, targetEdit, startButton, cancelButton,
// closeButton, phaseLabel, progressBar, detailLabel, resultLabel.
//
// Threading: fetchCifar10() runs on a std::thread owned by the dialog; its progress reports
// and its result reach the widgets only through queued calls on the GUI thread, each tagged
// with the job's id so that nothing of an older job is shown. Closing or destroying the
// dialog during a job cancels it and waits for the worker (within about a second: the
// engine polls the flag at least once a second), so nothing is left half-unpacked.
class FetchDialog : public QDialog {
    Q_OBJECT

public:
    explicit FetchDialog(QWidget *parent = nullptr);
    ~FetchDialog() override;

    // Fields (defaults: the settings, else kCifar10Url / kCifar10Md5 / defaultFetchDir()).
    void setUrl(const QString &url);
    void setExpectedMd5(const QString &md5); // empty: not checked
    void setTargetDir(const QString &dir);

    // Starts downloading the URL field's archive; false when a job is running.
    bool startDownload();
    // Starts unpacking a local archive instead ("Open archive…"); false when a job is running.
    bool startFromArchive(const QString &archivePath);
    // Cancels the running job (its end is reported as usual).
    void cancel();

    bool isBusy() const { return m_busy; }
    // The last job's outcome (FetchStatus::Failed before any job ended).
    const FetchResult &lastResult() const { return m_result; }

Q_SIGNALS:
    // A usable cifar-10-batches-bin folder is ready (fetched now or found already there).
    void dataReady(const QString &dataDir);
    // Every job ends with exactly one of these.
    void fetchEnded(const devicebench::FetchResult &result);

protected:
    void reject() override; // Escape / window close: cancels a running job first

private:
    bool startJob(FetchOptions options);
    void onProgress(int jobId, const FetchProgress &progress);
    void onEnded(int jobId, const FetchResult &result);
    void setBusy(bool busy);
    void joinWorker();

    QLineEdit *m_urlEdit = nullptr;
    QLineEdit *m_md5Edit = nullptr;
    QLineEdit *m_targetEdit = nullptr;
    QPushButton *m_browseButton = nullptr;
    QLabel *m_phaseLabel = nullptr;
    QProgressBar *m_progressBar = nullptr;
    QLabel *m_detailLabel = nullptr;
    QLabel *m_resultLabel = nullptr;
    QPushButton *m_startButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_closeButton = nullptr;

    bool m_busy = false;
    bool m_closeWhenEnded = false;
    int m_jobId = 0;
    FetchResult m_result;
    std::atomic<bool> m_cancel{false};
    MainThreadQueue m_events; // worker -> dialog's thread (see main_thread_queue.h)
    std::thread m_worker;
};

} // namespace devicebench

Q_DECLARE_METATYPE(devicebench::FetchResult)
