#include "compare_table.h"

#include "engine/whatif/performance_model.h"

#include <QHeaderView>

namespace clusterdesk::ui {
namespace {

QTableWidgetItem* numberItem(double value, int precision, const QString& suffix = QString())
{
    auto* item = new QTableWidgetItem(QString::number(value, 'f', precision) + suffix);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// The model's prediction; beside a measured time, with its error, in red beyond the
// model's tolerance.
QTableWidgetItem* modelItem(const CompareRow& row)
{
    if (!row.predictedMs) return new QTableWidgetItem();
    if (!row.measured || !(row.msPerIteration > 0)) return numberItem(*row.predictedMs, 3);
    const whatif::PredictionError error = whatif::predictionError(row.msPerIteration, *row.predictedMs);
    QTableWidgetItem* item =
        numberItem(*row.predictedMs, 3, QString(" (%1%2%)").arg(error.fraction >= 0 ? "+" : "").arg(100 * error.fraction, 0, 'f', 0));
    if (error.missed) {
        item->setForeground(QColor(170, 30, 30));
        item->setToolTip(QObject::tr("The prediction missed the measured time by more than %1 %, the model's target")
                             .arg(100 * whatif::kModelTolerance, 0, 'f', 0));
    }
    return item;
}

}  // namespace

CompareTable::CompareTable(QWidget* parent)
    : QTableWidget(0, ColumnCount, parent)
{
    setObjectName("compareTable");
    setHorizontalHeaderLabels({tr("topology"), tr("kind"), tr("ms/iteration"), tr("model ms"), tr("bottleneck"), tr("total s"),
                               tr("energy J (source)"), tr("cost $"), tr("speedup/iteration"), tr("efficiency"), tr("answer")});
    horizontalHeaderItem(Kind)->setToolTip(tr("measured: run on this machine; modeled: predicted for hardware in the catalog, calibrated by the measured runs"));
    horizontalHeaderItem(Model)->setToolTip(tr("For a measured topology: the model's prediction when calibrated without it"));
    horizontalHeaderItem(Speedup)->setToolTip(tr("Against the first topology, per iteration: what a long job gains. "
                                                  "Total s also holds start-up and data transfer, which a short job may not win back"));
    horizontalHeaderItem(Efficiency)->setToolTip(tr("Speedup per device (or shard) added"));
    horizontalHeaderItem(Answer)->setToolTip(tr("Exact mode: labels and centroids identical to the first run; "
                                                 "fast mode: ARI against an exact reference run"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
}

QString CompareTable::answerOf(const CompareRow& row)
{
    QString answer = row.identical ? (*row.identical ? QString::fromUtf8("✓ identical") : tr("CHANGED"))
                     : row.ari     ? tr("ARI %1").arg(*row.ari, 0, 'f', 4)
                                   : QString("-");
    if (!row.fitsInMemory) answer += tr(" (does not fit: %1 GiB)").arg(row.memoryNeededGiB, 0, 'f', 1);
    return answer;
}

void CompareTable::addRow(const CompareRow& row)
{
    const int r = rowCount();
    insertRow(r);
    setRow(r, row);
}

void CompareTable::setRow(int r, const CompareRow& row)
{
    if (columnSpan(r, MsPerIteration) > 1) setSpan(r, MsPerIteration, 1, 1);
    for (int c = 0; c < ColumnCount; ++c) delete takeItem(r, c);
    setItem(r, Topology, new QTableWidgetItem(row.topology));
    setItem(r, Kind, new QTableWidgetItem(row.measured ? tr("measured") : tr("modeled")));
    if (!row.ok()) {
        // The reason spans the numbers' columns: there are none.
        auto* why = new QTableWidgetItem(row.status + (row.failure.isEmpty() ? QString() : ": " + row.failure));
        why->setForeground(QColor(170, 30, 30));
        setItem(r, MsPerIteration, why);
        setSpan(r, MsPerIteration, 1, ColumnCount - MsPerIteration);
        return;
    }
    setItem(r, MsPerIteration, numberItem(row.msPerIteration, 3));
    setItem(r, Model, modelItem(row));
    setItem(r, Bottleneck, new QTableWidgetItem(row.bottleneck));
    setItem(r, TotalS, numberItem(row.totalS, 3));
    auto* energy = numberItem(row.energyJ, 1, QString(" (%1)").arg(row.energySource));
    setItem(r, Energy, energy);
    setItem(r, Cost, row.costUsd > 0 ? numberItem(row.costUsd, 5) : new QTableWidgetItem(tr("unpriced")));
    setItem(r, Speedup, numberItem(row.speedup, 2, "x"));
    setItem(r, Efficiency, row.efficiency > 0 ? numberItem(100 * row.efficiency, 0, "%") : new QTableWidgetItem("-"));
    auto* answer = new QTableWidgetItem(answerOf(row));
    if (row.identical && !*row.identical) answer->setForeground(QColor(170, 30, 30));
    setItem(r, Answer, answer);
}

void CompareTable::clearRows()
{
    clearSpans();
    setRowCount(0);
}

}  // namespace clusterdesk::ui
