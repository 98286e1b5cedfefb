// SPDX-License-Identifier: MIT
// The dashboard's composition root: connects the window's requests (ui/window/main_window.h,
// ui/dialogs/fetch_dialog.h) to the controllers (app/controller/) and the controllers' reports to
// the window's slots. The one place where ui/ and app/controller/ are wired together (the
// scripted session, scripted_session.h, only listens to both and stops a run on a signal).
#pragma once

namespace devicebench {

class FetchController;
class FetchDialog;
class MainWindow;
class ProbeController;
class RunController;
class SweepController;
class SweepPanel;

// The interface, signal -> slot (all direct connections on the GUI thread):
//   window.startRunRequested(request)                -> runs.startRun
//   window.startRunSetRequested(requests, interleave) -> runs.startRunSet
//   runs.runSetAccepted                              -> window.onRunSetAccepted
//   window.stopRequested                             -> runs.stop
//   runs.runAccepted / recordStarted / runStarted / stepLosses / systemSamples /
//     epochFinished / runEnded (the RecordedRun) / runRejected
//                                                    -> window.onRunAccepted / ... (same names)
//   window.probeRequested                            -> probe.start
//   probe.probed(id, devices, fingerprint)           -> window.onDevicesProbed
//   probe.probeFailed(id, reason)                    -> window.onProbeFailed
//   window.fetchDialogCreated(dialog)                -> wires that dialog to `fetch`:
//     dialog.fetchRequested(options) -> fetch.start;  dialog.cancelRequested -> fetch.cancel;
//     fetch.fetchStarted / progress / ended          -> dialog.onFetchStarted / onProgress /
//                                                       onEnded
// Then it asks for the first device probe (window.requestProbe()): the window is shown and
// usable at once, and the GPU button is enabled when the probe reports a usable GPU.
//   with `sweeps`: wireSweepPanel(*window.sweepPanel(), *sweeps)
// Every controller must outlive the window's use of it (declare them before the window).
void wireDashboard(MainWindow &window, RunController &runs, ProbeController &probe,
                   FetchController &fetch, SweepController *sweeps = nullptr);

// The Sweep view and its controller:
//   panel.startSweepRequested(spec, folder)  -> sweeps.start
//   panel.stopSweepRequested                 -> sweeps.stop
//   sweeps.sweepAccepted / cellStarted / cellEnded / sweepEnded / sweepRejected
//                                            -> panel.onSweepAccepted / ... (same names)
void wireSweepPanel(SweepPanel &panel, SweepController &sweeps);

// The fetch part alone: `dialog`'s requests to `fetch`, `fetch`'s reports to `dialog`.
void wireFetchDialog(FetchDialog &dialog, FetchController &fetch);

} // namespace devicebench
