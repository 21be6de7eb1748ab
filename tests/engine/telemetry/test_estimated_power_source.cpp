// The CPU estimate: catalog look-ups, a /proc/stat written by the test (exact
// arithmetic), and this machine's real /proc/stat while a thread burns CPU.
#include "engine/core/error.h"
#include "engine/telemetry/estimated_power_source.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

using clusterdesk::cpuPowerModel;

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    file.write(text);
}

// Keeps one core busy for `seconds`.
void burn(double seconds)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    volatile double x = 1;
    while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
}

}  // namespace

class TestEstimatedPowerSource : public QObject {
    Q_OBJECT

private slots:
    void catalogLookup_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("threads");
        QTest::addColumn<double>("tdp");
        QTest::addColumn<QString>("basis");
        // EPYC 7763: 280 W for 128 threads, so 8 threads of it are charged 17.5 W.
        QTest::newRow("known, part of a socket") << "AMD EPYC 7763 64-Core Processor" << 8 << 17.5 << "catalog: EPYC 7763";
        QTest::newRow("known, whole socket") << "AMD EPYC 7763 64-Core Processor" << 128 << 280.0 << "catalog: EPYC 7763";
        QTest::newRow("unknown model") << "AMD EPYC" << 2 << 30.0 << "default 15 W per thread";
        QTest::newRow("no model") << "" << 4 << 60.0 << "default 15 W per thread";
    }

    void catalogLookup()
    {
        QFETCH(QString, model);
        QFETCH(int, threads);
        QFETCH(double, tdp);
        QFETCH(QString, basis);
        const clusterdesk::CpuPowerModel power = cpuPowerModel(model.toStdString(), threads);
        QCOMPARE(power.tdpWatts, tdp);
        QCOMPARE(power.idleWatts, 0.3 * tdp);
        QCOMPARE(QString::fromStdString(power.basis), basis);
    }

    void longestMatchWins()
    {
        const std::string catalog = R"({"cpus": [{"match": "EPYC", "tdp_w": 100, "threads": 10},
                                                  {"match": "EPYC 7763", "tdp_w": 280, "threads": 128}],
                                        "default": {"watts_per_thread": 15, "idle_fraction": 0.25}})";
        const auto power = cpuPowerModel("AMD EPYC 7763 64-Core Processor", 128, catalog);
        QCOMPARE(power.tdpWatts, 280.0);
        QCOMPARE(power.idleWatts, 70.0);
    }

    void malformedCatalogThrows()
    {
        QVERIFY_THROWS_EXCEPTION(clusterdesk::DataError, cpuPowerModel("x", 1, R"({"cpus": []})"));
    }

    // Two CPUs, half of their ticks busy between the reads: idle + half of (TDP - idle).
    void utilisationFromStatDeltas()
    {
        QTemporaryDir dir;
        const QString stat = dir.filePath("stat");
        const QString cpuinfo = dir.filePath("cpuinfo");
        writeFile(cpuinfo, "processor\t: 0\nmodel name\t: Imaginary CPU 9000\n");
        writeFile(stat, "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\ncpu1 50 0 50 400 0 0 0 0 0 0\nintr 1\n");
        clusterdesk::EstimatedCpuPowerSource source(stat.toStdString(), cpuinfo.toStdString());
        QCOMPARE(source.device(), std::string("cpu (Imaginary CPU 9000, 2 threads)"));
        QCOMPARE(source.model().tdpWatts, 30.0);
        // +100 busy (user 60, system 40), +100 idle.
        writeFile(stat, "cpu  160 0 140 900 0 0 0 0 0 0\ncpu0 80 0 70 450 0 0 0 0 0 0\ncpu1 80 0 70 450 0 0 0 0 0 0\nintr 1\n");
        const auto reading = source.read();
        QVERIFY(reading && reading->energyJ);
        QCOMPARE(reading->watts, 9.0 + 0.5 * 21.0);
        QVERIFY(*reading->energyJ > 0);
    }

    void unreadableStatThrows()
    {
        QVERIFY_THROWS_EXCEPTION(clusterdesk::DeviceError, clusterdesk::EstimatedCpuPowerSource("/nonexistent/stat"));
    }

    void thisMachineWhileBurning()
    {
        clusterdesk::EstimatedCpuPowerSource source;
        QVERIFY(source.kind() == clusterdesk::PowerKind::Estimated);
        QCOMPARE(source.name(), std::string("estimated"));
        std::thread burner(burn, 0.5);
        burner.join();
        const auto reading = source.read();
        QVERIFY(reading && reading->energyJ);
        QVERIFY2(*reading->energyJ > 0, qPrintable(QString::number(*reading->energyJ)));
        // One busy core moves the estimate above the idle floor.
        QVERIFY2(reading->watts > source.model().idleWatts,
                 qPrintable(QStringLiteral("%1 W, idle %2 W").arg(reading->watts).arg(source.model().idleWatts)));
        QVERIFY(reading->watts <= source.model().tdpWatts);
    }
};

QTEST_APPLESS_MAIN(TestEstimatedPowerSource)
#include "test_estimated_power_source.moc"
