// Engine panel: what the clustering run is asked to do (KMeansParams), each field
// with a tooltip saying what it does. Fields that do not apply to the chosen
// algorithm are disabled rather than silently ignored.
#pragma once

#include "engine/cluster/params.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace clusterdesk::ui {

class EnginePanel : public QWidget {
    Q_OBJECT
public:
    explicit EnginePanel(QWidget* parent = nullptr);

    KMeansParams params() const;
    void setParams(const KMeansParams& params);
    // Whether the run's topology is on GPUs: precision applies there only (in fast
    // mode), so elsewhere it is disabled, as the run computes in FP32 whatever it says.
    void setOnGpus(bool onGpus);

private:
    void updateEnabled();

    QComboBox* m_algorithm = nullptr;
    QSpinBox* m_k = nullptr;
    QSpinBox* m_k0 = nullptr;
    QSpinBox* m_kMax = nullptr;
    QComboBox* m_init = nullptr;
    QSpinBox* m_nInit = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_precision = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_maxIterations = nullptr;
    QDoubleSpinBox* m_tolerance = nullptr;
    bool m_onGpus = false;
};

}  // namespace clusterdesk::ui
