// The CUDA backend against the host one through whole runs: exact mode must give the
// same labels and centroids bit for bit on cuda:0 (and sharded: cuda:0,0, cuda:0,1) as
// on the host, fast mode the same clustering. Needs a GPU; without one every test says it was skipped and why.
#include "engine/cluster/metrics.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"
#include "kernels/backend_registry.h"

#include <QTest>

#include <cstring>

using namespace clusterdesk;

class TestCudaBackend : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        const kernels::CudaAvailability cuda = kernels::cudaAvailability();
        if (cuda.deviceCount == 0) QSKIP(qPrintable("needs a CUDA GPU: " + QString::fromStdString(cuda.reason)));
    }

    void exactRunMatchesHostBitForBit_data()
    {
        QTest::addColumn<int>("algorithm");
        QTest::newRow("kmeans") << int(Algorithm::KMeans);
        QTest::newRow("adaptgrow") << int(Algorithm::AdaptGrow);
    }

    void exactRunMatchesHostBitForBit()
    {
        QFETCH(int, algorithm);
        const Dataset data = makeDemo("blobs:n=50000,d=24,k=12,seed=5,spread=2");
        KMeansParams params;
        params.algorithm = static_cast<Algorithm>(algorithm);
        params.k = 12;
        params.kMax = 24;
        params.mode = kernels::Mode::Exact;
        const RunReport host = runClustering(data, params, parseTopology("host"), 2);
        const RunReport gpu = runClustering(data, params, parseTopology("cuda"), 2);
        QCOMPARE(gpu.backend, std::string("cuda"));
        QCOMPARE(gpu.result.k, host.result.k);
        QCOMPARE(gpu.result.labels, host.result.labels);
        QVERIFY(std::memcmp(gpu.result.centroids.data(), host.result.centroids.data(),
                            host.result.centroids.size() * sizeof(float)) == 0);
        QCOMPARE(gpu.result.inertia, host.result.inertia);
    }

    void shardsOnGpusMatchHostBitForBit_data()
    {
        // Several shards on GPU 0 (a one-GPU machine's multi-shard path), and one shard
        // per GPU joined by NCCL where there are several.
        QTest::addColumn<QString>("topology");
        QTest::newRow("cuda:0,0") << "cuda:0,0";
        QTest::newRow("cuda:0,0,0") << "cuda:0,0,0";
        QTest::newRow("cuda:0,1") << "cuda:0,1";
    }

    void shardsOnGpusMatchHostBitForBit()
    {
        QFETCH(QString, topology);
        if (topology == "cuda:0,1" && kernels::cudaAvailability().deviceCount < 2) QSKIP("needs two GPUs");
        const Dataset data = makeDemo("blobs:n=50000,d=24,k=12,seed=5,spread=2");
        KMeansParams params;
        params.k = 12;
        params.init = InitMethod::KMeansParallel;
        params.mode = kernels::Mode::Exact;
        const RunReport host = runClustering(data, params, parseTopology("host"), 2);
        const RunReport gpu = runClustering(data, params, parseTopology(topology.toStdString()), 2);
        qInfo("%s: shards joined by %s", qPrintable(topology), gpu.communicator.c_str());
        QCOMPARE(gpu.result.labels, host.result.labels);
        QVERIFY(std::memcmp(gpu.result.centroids.data(), host.result.centroids.data(),
                            host.result.centroids.size() * sizeof(float)) == 0);
        QCOMPARE(gpu.result.inertia, host.result.inertia);
        QCOMPARE(gpu.result.history.front().ranks.size(), static_cast<std::size_t>(parseTopology(topology.toStdString()).shardCount()));
    }

    void fastRunAgreesWithHost_data()
    {
        QTest::addColumn<int>("precision");
        QTest::newRow("fp32") << int(kernels::Precision::FP32);
        QTest::newRow("tf32") << int(kernels::Precision::TF32);
        QTest::newRow("bf16") << int(kernels::Precision::BF16);
    }

    void fastRunAgreesWithHost()
    {
        QFETCH(int, precision);
        const Dataset data = makeDemo("blobs:n=50000,d=24,k=12,seed=5,spread=2");
        KMeansParams params;
        params.k = 12;
        params.precision = static_cast<kernels::Precision>(precision);
        const RunReport host = runClustering(data, params, parseTopology("host"), 2);
        const RunReport gpu = runClustering(data, params, parseTopology("cuda"), 2);
        const double ari = adjustedRandIndex(host.result.labels, gpu.result.labels);
        qInfo("%s: ARI host vs cuda %.6f, inertia %.8g vs %.8g", kernels::toString(params.precision).c_str(), ari,
              host.result.inertia, gpu.result.inertia);
        QVERIFY(ari >= 0.999);
        QVERIFY(std::abs(gpu.result.inertia - host.result.inertia) <= 1e-3 * host.result.inertia);
    }
};

QTEST_APPLESS_MAIN(TestCudaBackend)
#include "test_cuda_backend.moc"
