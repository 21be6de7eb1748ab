// Shared set-up for the GUI suites: settings in a temporary folder (never the user's),
// and waiting for a Workstation's data and runs with a timeout.
#pragma once

#include "app/gui/workstation.h"
#include "engine/core/percentile.h"
#include "ui/main_window.h"
#include "ui/panels/engine_panel.h"
#include "test_hooks_guard.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QAction>

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <optional>
#include <vector>

namespace clusterdesk::gui::test {

// Call from initTestCase: QSettings (and a run store, if the window records runs)
// write under settingsDir, not $HOME.
inline void isolateSettings(const QTemporaryDir& settingsDir)
{
    qputenv("CLUSTERDESK_DB", settingsDir.filePath("runs.sqlite").toUtf8());
    qputenv("XDG_DATA_HOME", settingsDir.filePath("data").toUtf8());
    QCoreApplication::setOrganizationName("ClusterDeskTest");
    QCoreApplication::setApplicationName("clusterdesk-test");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
}

// Generates the demo and waits for it; false (with the reason in QTest's log) on failure.
inline bool loadDemo(Workstation& station, const QString& spec, int timeoutMs = 120000)
{
    QSignalSpy ready(&station, &Workstation::datasetReady);
    QSignalSpy failed(&station, &Workstation::loadFailed);
    station.loadDemo(spec);
    for (int waited = 0; ready.isEmpty() && failed.isEmpty() && waited < timeoutMs; waited += 50) QTest::qWait(50);
    if (!failed.isEmpty()) qWarning("demo %s failed: %s", qPrintable(spec), qPrintable(failed.front().front().toString()));
    return !ready.isEmpty();
}

// Loads `demo` (overlapping blobs) and sets k-means with k clusters. The caller holds a
// testhooks::EndlessRuns (tests/test_hooks_guard.h), so the run goes on until it is cancelled.
inline bool prepareEndlessRun(Workstation& station, const QString& demo, int k)
{
    if (!loadDemo(station, demo)) return false;
    KMeansParams params;
    params.algorithm = Algorithm::KMeans;
    params.k = k;
    station.window().enginePanel().setParams(params);
    return true;
}

// Starts a run with the window's Run action and waits for its outcome.
inline std::optional<ui::RunOutcome> runToEnd(Workstation& station, int timeoutMs = 120000)
{
    QSignalSpy finished(&station, &Workstation::runFinished);
    station.window().runAction()->trigger();
    if (!finished.wait(timeoutMs)) return std::nullopt;
    return finished.front().front().value<ui::RunOutcome>();
}

// How responsive the UI thread stays: a 10 ms timer on it records how late each timeout
// fires, between start() and stop().
class EventLoopLag {
public:
    static constexpr int kPeriodMs = 10;

    EventLoopLag()
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_tick, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_lateMs.push_back(static_cast<double>(std::max<qint64>(0, now - m_expected)) / 1e6);
            m_expected = now + qint64(kPeriodMs) * 1000000;
        });
    }
    void start()
    {
        m_clock.start();
        m_expected = qint64(kPeriodMs) * 1000000;
        m_tick.start(kPeriodMs);
    }
    void stop() { m_tick.stop(); }
    std::size_t ticks() const { return m_lateMs.size(); }
    double seconds() const { return static_cast<double>(m_clock.elapsed()) / 1000.0; }
    // Nearest-rank percentile of the lateness, in ms (p in 0..100).
    double percentile(double p) const { return clusterdesk::percentile(m_lateMs, p / 100); }

private:
    QTimer m_tick;
    QElapsedTimer m_clock;
    qint64 m_expected = 0;
    std::vector<double> m_lateMs;
};

}  // namespace clusterdesk::gui::test
