// The sampler on this machine's real sources (whatever they are), and on a RAPL tree
// the test writes, where the energy it must report is known exactly.
#include "engine/telemetry/power_sampler.h"

#include <QDir>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <thread>

using namespace std::chrono_literals;

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QSaveFile file(path);  // one rename: the sampler never reads half a number
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    file.write(text + "\n");
    QVERIFY(file.commit());
}

void burn(std::chrono::milliseconds duration)
{
    const auto end = std::chrono::steady_clock::now() + duration;
    volatile double x = 1;
    while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
}

}  // namespace

class TestPowerSampler : public QObject {
    Q_OBJECT

private slots:
    void thisMachineTwice()
    {
        clusterdesk::PowerSampler sampler;
        QVERIFY(sampler.deviceCount() >= 1);  // at worst the estimate
        for (int round = 0; round < 2; ++round) {
            sampler.start();
            QVERIFY(sampler.running());
            burn(1000ms);
            sampler.stop();
            QVERIFY(!sampler.running());

            const clusterdesk::PowerSummary s = sampler.summary();
            QVERIFY2(s.energyJ > 0, qPrintable(QString::number(s.energyJ)));
            QVERIFY(s.seconds >= 0.9 && s.seconds < 3.0);
            QCOMPARE(s.devices.size(), sampler.deviceCount());
            // The label follows from the devices found, whichever this machine has.
            QCOMPARE(s.energySource, clusterdesk::energySourceLabel(s.devices));
            bool measured = false, estimated = false;
            for (const auto& d : s.devices) (d.kind == clusterdesk::PowerKind::Measured ? measured : estimated) = true;
            QCOMPARE(QString::fromStdString(s.energySource),
                     QString(measured && estimated ? "mixed" : measured ? "measured" : "estimated"));
            double sum = 0;
            for (const auto& d : s.devices) sum += d.joules;
            QCOMPARE(s.energyJ, sum);

            // ~10 Hz for a second: about 11 samples per device (both ends count); a
            // loaded test machine may stretch that, hence the wide range.
            const auto samples = sampler.samples();
            for (std::size_t device = 0; device < s.devices.size(); ++device) {
                const auto count = std::count_if(samples.begin(), samples.end(),
                                                 [&](const auto& p) { return p.device == int(device); });
                QVERIFY2(count >= 4 && count <= 33, qPrintable(QStringLiteral("%1 samples in 1 s").arg(count)));
            }
            for (std::size_t i = 1; i < samples.size(); ++i) QVERIFY(samples[i].seconds >= samples[i - 1].seconds);
        }
    }

    // Only a measured package: no estimate beside it, and exactly the counter's joules.
    void raplFixtureIsMeasured()
    {
        QTemporaryDir root;
        writeFile(root.filePath("intel-rapl:0/name"), "package-0");
        writeFile(root.filePath("intel-rapl:0/max_energy_range_uj"), "262143328850");
        writeFile(root.filePath("intel-rapl:0/energy_uj"), "1000000");
        clusterdesk::PowerSamplerOptions options;
        options.useNvml = false;
        options.powercapRoot = root.path().toStdString();
        clusterdesk::PowerSampler sampler(options);
        QCOMPARE(sampler.deviceCount(), std::size_t(1));
        sampler.start();
        std::this_thread::sleep_for(300ms);
        writeFile(root.filePath("intel-rapl:0/energy_uj"), "6000000");
        std::this_thread::sleep_for(300ms);
        sampler.stop();
        const clusterdesk::PowerSummary s = sampler.summary();
        QCOMPARE(s.energySource, std::string("measured"));
        QCOMPARE(s.devices.size(), std::size_t(1));
        QCOMPARE(s.devices[0].device, std::string("cpu package 0"));
        QCOMPARE(s.energyJ, 5.0);
    }

    // Without RAPL the estimate stands in, and the reason RAPL was not used is kept.
    void estimateWhereNothingMeasures()
    {
        clusterdesk::PowerSamplerOptions options;
        options.useNvml = false;
        options.powercapRoot = "/nonexistent/powercap";
        clusterdesk::PowerSampler sampler(options);
        const clusterdesk::PowerSummary s = sampler.summary();
        QCOMPARE(s.devices.size(), std::size_t(1));
        QCOMPARE(s.devices[0].source, std::string("estimated"));
        QCOMPARE(s.energySource, std::string("estimated"));
        QVERIFY(!s.unavailable.empty());
    }

    void destroyedWhileRunning()
    {
        clusterdesk::PowerSampler sampler;
        sampler.start();
        sampler.start();  // no second thread
        std::this_thread::sleep_for(50ms);
    }  // the destructor stops and joins

    void mixedLabel()
    {
        using clusterdesk::DeviceEnergy;
        using clusterdesk::PowerKind;
        const DeviceEnergy gpu{"GPU 0", "nvml", PowerKind::Measured, 1};
        const DeviceEnergy cpu{"cpu", "estimated", PowerKind::Estimated, 1};
        QCOMPARE(clusterdesk::energySourceLabel({gpu, cpu}), std::string("mixed"));
        QCOMPARE(clusterdesk::energySourceLabel({gpu}), std::string("measured"));
        QCOMPARE(clusterdesk::energySourceLabel({cpu}), std::string("estimated"));
        QCOMPARE(clusterdesk::energySourceLabel({}), std::string());
    }
};

QTEST_APPLESS_MAIN(TestPowerSampler)
#include "test_power_sampler.moc"
