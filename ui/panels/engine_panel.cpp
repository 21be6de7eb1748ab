#include "engine_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace clusterdesk::ui {
namespace {

QSpinBox* intField(QWidget* parent, const char* name, int low, int high, const QString& tip)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(low, high);
    box->setToolTip(tip);
    return box;
}

QComboBox* choiceField(QWidget* parent, const char* name, const QStringList& items, const QString& tip)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(name);
    box->addItems(items);
    box->setToolTip(tip);
    return box;
}

}  // namespace

EnginePanel::EnginePanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("enginePanel");
    auto* form = new QFormLayout(this);
    m_algorithm = choiceField(this, "algorithm", {tr("k-means"), tr("AdaptGrow")},
                              tr("k-means: Lloyd iterations with a fixed k.\n"
                                 "AdaptGrow: starts at k0 and splits clusters while a split carries more variance than noise could, up to k max; then merges pairs that noise alone could have separated."));
    m_k = intField(this, "k", 1, 1'000'000, tr("k-means: the number of clusters."));
    m_k0 = intField(this, "k0", 1, 1'000'000, tr("AdaptGrow: the number of clusters to start from."));
    m_kMax = intField(this, "kMax", 1, 1'000'000, tr("AdaptGrow: never grow beyond this many clusters."));
    m_init = choiceField(this, "init", {tr("k-means++"), tr("k-means||")},
                         tr("How the first centroids are chosen.\nk-means++: one at a time, far from the chosen ones.\n"
                            "k-means||: a few parallel oversampling rounds, faster on large data."));
    m_nInit = intField(this, "nInit", 1, 1000,
                       tr("k-means: run from this many initialisations (seeds seed, seed+1, ...) and keep the one with the lowest inertia.\n"
                          "AdaptGrow: above 1, k-means restarts at the k it chose compete with its own partition; the lowest inertia is kept.\n"
                          "In exact mode every topology keeps the same one."));
    m_mode = choiceField(this, "mode", {tr("fast"), tr("exact")},
                         tr("fast: GEMM distances and floating-point sums; topologies may differ in the last bits.\n"
                            "exact: deterministic distances and 64-bit fixed-point sums; every topology gives the same bits."));
    m_precision = choiceField(this, "precision", {"FP32", "TF32", "BF16"},
                              tr("Fast mode on a GPU: the arithmetic of the distance GEMM. FP32 everywhere else."));
    m_seed = intField(this, "seed", 0, std::numeric_limits<int>::max(), tr("Every random choice derives from it: same seed, same run."));
    m_maxIterations = intField(this, "maxIterations", 1, 100000,
                               tr("Lloyd iterations at most (per round for AdaptGrow)."));
    m_tolerance = new QDoubleSpinBox(this);
    m_tolerance->setObjectName("tolerance");
    m_tolerance->setDecimals(8);
    m_tolerance->setRange(0, 1);
    m_tolerance->setSingleStep(1e-4);
    m_tolerance->setToolTip(tr("Stop when the relative change of inertia between iterations falls below this."));
    form->addRow(tr("Algorithm"), m_algorithm);
    form->addRow(tr("k"), m_k);
    form->addRow(tr("k0"), m_k0);
    form->addRow(tr("k max"), m_kMax);
    form->addRow(tr("Initialisation"), m_init);
    form->addRow(tr("Initialisations"), m_nInit);
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Max iterations"), m_maxIterations);
    form->addRow(tr("Tolerance"), m_tolerance);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, &EnginePanel::updateEnabled);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &EnginePanel::updateEnabled);
    setParams(KMeansParams{});
}

void EnginePanel::updateEnabled()
{
    const bool adaptGrow = m_algorithm->currentIndex() == 1;
    m_k->setEnabled(!adaptGrow);
    m_k0->setEnabled(adaptGrow);
    m_kMax->setEnabled(adaptGrow);
    m_precision->setEnabled(m_onGpus && m_mode->currentIndex() == 0);
}

void EnginePanel::setOnGpus(bool onGpus)
{
    m_onGpus = onGpus;
    updateEnabled();
}

KMeansParams EnginePanel::params() const
{
    KMeansParams p;
    p.algorithm = m_algorithm->currentIndex() == 1 ? Algorithm::AdaptGrow : Algorithm::KMeans;
    p.k = m_k->value();
    p.k0 = m_k0->value();
    p.kMax = m_kMax->value();
    p.init = m_init->currentIndex() == 1 ? InitMethod::KMeansParallel : InitMethod::KMeansPlusPlus;
    p.nInit = m_nInit->value();
    p.mode = m_mode->currentIndex() == 1 ? kernels::Mode::Exact : kernels::Mode::Fast;
    p.precision = static_cast<kernels::Precision>(m_precision->currentIndex());
    p.seed = static_cast<std::uint64_t>(m_seed->value());
    p.maxIterations = m_maxIterations->value();
    p.tolerance = m_tolerance->value();
    return p;
}

void EnginePanel::setParams(const KMeansParams& p)
{
    m_algorithm->setCurrentIndex(p.algorithm == Algorithm::AdaptGrow ? 1 : 0);
    m_k->setValue(p.k);
    m_k0->setValue(p.k0);
    m_kMax->setValue(p.kMax);
    m_init->setCurrentIndex(p.init == InitMethod::KMeansParallel ? 1 : 0);
    m_nInit->setValue(p.nInit);
    m_mode->setCurrentIndex(p.mode == kernels::Mode::Exact ? 1 : 0);
    m_precision->setCurrentIndex(static_cast<int>(p.precision));
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(p.seed, std::numeric_limits<int>::max())));
    m_maxIterations->setValue(p.maxIterations);
    m_tolerance->setValue(p.tolerance);
    updateEnabled();
}

}  // namespace clusterdesk::ui
