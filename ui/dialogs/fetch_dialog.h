// SPDX-License-Identifier: MIT
// "Get CIFAR-10…" and "Open archive…": a dialog that asks for fetchCifar10()
// (devicebench/fetch.h) with a signal and shows the job's progress (phase, bar, bytes, rate,
// time left) with a Cancel button. The job runs elsewhere (app/controller/fetch_controller.h,
// wired by the dashboard's composition root). The source URL and the expected MD5 are settings
// (QSettings "fetch/url", "fetch/md5"; mirrors), remembered when a download starts.
#pragma once

#include "devicebench/fetch.h"

#include <QDialog>
#include <QString>

class QLabel;
class QLayout;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace devicebench {

// Object names for tests: urlEdit, md5Edit, targetEdit, startButton, cancelButton,
// closeButton, phaseLabel, progressBar, detailLabel, resultLabel.
//
// Jobs: a start emits fetchRequested(options); the controller answers, on this thread, with
// onFetchStarted(jobId) (inside that emit, for a direct connection), then onProgress and
// exactly one onEnded for that id; reports of any other id are ignored. Closing the dialog
// during a job cancels it (cancelRequested) and closes once it has ended; the controller's
// owner waits for its worker (the engine removes what it had written).
class FetchDialog : public QDialog {
    Q_OBJECT

public:
    explicit FetchDialog(QWidget *parent = nullptr);
    ~FetchDialog() override;

    // Fields (defaults: the settings, else kCifar10Url / kCifar10Md5 / defaultFetchDir()).
    void setUrl(const QString &url);
    void setExpectedMd5(const QString &md5); // empty: not checked
    void setTargetDir(const QString &dir);

    // Starts downloading the URL field's archive; false when a job is running or the request
    // was not accepted (nothing connected, or the controller busy).
    bool startDownload();
    // Starts unpacking a local archive instead ("Open archive…"); false as startDownload.
    bool startFromArchive(const QString &archivePath);
    // Cancels the running job (its end is reported as usual).
    void cancel();

public Q_SLOTS:
    // From the fetch controller (see "Jobs" above).
    void onFetchStarted(int jobId);
    void onProgress(int jobId, const devicebench::FetchProgress &progress);
    void onEnded(int jobId, const devicebench::FetchResult &result);

    bool isBusy() const { return m_busy; }
    // The last job's outcome (FetchStatus::Failed before any job ended).
    const FetchResult &lastResult() const { return m_result; }

Q_SIGNALS:
    // Asks for a fetch with these options (url or archivePath, expectedMd5, targetDir).
    void fetchRequested(devicebench::FetchOptions options);
    void cancelRequested();
    // A usable cifar-10-batches-bin folder is ready (fetched now or found already there).
    void dataReady(const QString &dataDir);
    // Every job ends with exactly one of these.
    void fetchEnded(const devicebench::FetchResult &result);

protected:
    void reject() override; // Escape / window close: cancels a running job first

private:
    QLayout *buildForm();                  // Download from, Expected MD5, Unpack into
    void buildStatus(QVBoxLayout *layout); // phase, bar, detail and result
    QWidget *buildButtons();               // Download, Cancel, Close
    bool startJob(FetchOptions options);
    void setBusy(bool busy);

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
    bool m_cancelling = false;
    int m_jobId = 0; // the current (or last) job's id; 0 before the first
    FetchResult m_result;
};

} // namespace devicebench
