// Correctness against a peer: the same data, the same initial centroids and the same
// iteration count give scikit-learn's inertia (relative difference <= 1e-4) and its
// labels (ARI >= 0.999), in both numerical modes and on sharded topologies.
#include "cli_runner.h"

#include "engine/cluster/metrics.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

namespace {

const char* kPython = "/usr/bin/python3";

// Overlapping blobs so that Lloyd needs its iterations; init = 12 random rows.
const char* kPeerScript = R"PY(
import sys, numpy as np
from sklearn.cluster import KMeans
out, iters = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(20261202)
n, d, k = 30000, 12, 12
centres = rng.uniform(-6, 6, (k, d))
X = (centres[rng.integers(0, k, n)] + rng.standard_normal((n, d)) * 2.0).astype(np.float32)
init = X[rng.choice(n, k, replace=False)]
np.save(out + "/x.npy", X)
np.savetxt(out + "/init.csv", init, delimiter=",", fmt="%.9g")
km = KMeans(n_clusters=k, init=init, n_init=1, max_iter=iters, tol=0, algorithm="lloyd").fit(X)
np.savetxt(out + "/sklearn_labels.txt", km.labels_, fmt="%d")
with open(out + "/sklearn.txt", "w") as f:
    f.write("%.10g %d\n" % (km.inertia_, km.n_iter_))
)PY";

std::vector<std::int32_t> readLabels(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    std::vector<std::int32_t> labels;
    QTextStream in(&file);
    while (!in.atEnd()) {
        // Ours: "id,cluster" with a header; scikit-learn's: one bare label per line.
        const QString line = in.readLine().trimmed();
        if (!line.isEmpty() && line != "id,cluster") labels.push_back(line.section(',', -1).toInt());
    }
    return labels;
}

}  // namespace

class TestSklearnPeer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QProcess probe;
        probe.start(kPython, {"-c", "import sklearn, numpy"});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0)
            QSKIP("scikit-learn is not installed for /usr/bin/python3 (apt-get install python3-sklearn); peer comparison skipped");
        QVERIFY(m_dir.isValid());
        QProcess peer;
        peer.start(kPython, {"-c", kPeerScript, m_dir.path(), QString::number(kIterations)});
        QVERIFY(peer.waitForFinished(300000));
        QVERIFY2(peer.exitCode() == 0, peer.readAllStandardError().constData());
        QFile summary(m_dir.filePath("sklearn.txt"));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QStringList fields = QString::fromUtf8(summary.readAll()).split(' ');
        m_sklearnInertia = fields.value(0).toDouble();
        m_sklearnLabels = readLabels(m_dir.filePath("sklearn_labels.txt"));
        QVERIFY(m_sklearnInertia > 0);
        QCOMPARE(m_sklearnLabels.size(), std::size_t(30000));
    }

    void sameInertiaAndLabels_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("topology");
        QTest::newRow("fast host") << "fast" << "host";
        QTest::newRow("exact host") << "exact" << "host";
        QTest::newRow("fast shards:3") << "fast" << "shards:3";
        QTest::newRow("exact shards:4") << "exact" << "shards:4";
    }

    void sameInertiaAndLabels()
    {
        QFETCH(QString, mode);
        QFETCH(QString, topology);
        const QString labelsPath = m_dir.filePath("ours_" + mode + ".txt");
        const CliResult r = runCli({"run", "--data", m_dir.filePath("x.npy"), "--init-centroids", m_dir.filePath("init.csv"),
                                    "--max-iter", QString::number(kIterations), "--tol", "0", "--mode", mode, "--topology",
                                    topology, "--json", "-", "--labels-out", labelsPath});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const double inertia = json["inertia"].toDouble();
        const double relative = std::abs(inertia - m_sklearnInertia) / m_sklearnInertia;
        const std::vector<std::int32_t> labels = readLabels(labelsPath);
        const double ari = clusterdesk::adjustedRandIndex(labels, m_sklearnLabels);
        qInfo("%s on %s: inertia %.10g vs scikit-learn %.10g (relative difference %.2e), ARI %.6f, %d iterations",
              qPrintable(mode), qPrintable(topology), inertia, m_sklearnInertia, relative, ari, json["iterations"].toInt());
        QVERIFY(relative <= 1e-4);
        QVERIFY(ari >= 0.999);
    }

private:
    static constexpr int kIterations = 25;
    QTemporaryDir m_dir;
    double m_sklearnInertia = 0;
    std::vector<std::int32_t> m_sklearnLabels;
};

QTEST_GUILESS_MAIN(TestSklearnPeer)
#include "test_sklearn_peer.moc"
