#include "growth_note.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace clusterdesk::ui {
namespace {

// Lines of at most this many characters: a note is one QCPTextElement, which does not wrap.
constexpr int kLineChars = 130;
// Tests listed under the headline.
constexpr std::size_t kTestsListed = 3;

QString share(double v)
{
    return std::isnan(v) ? QObject::tr("n/a") : QString::number(v, 'f', 3);
}

QString wrapped(const QString& text)
{
    QStringList lines;
    QString line;
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > kLineChars) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? "" : " ") + word;
    }
    if (!line.isEmpty()) lines << line;
    return lines.join('\n');
}

}  // namespace

QString splitTestText(const SplitTestRecord& t)
{
    return QObject::tr("cluster %1 (%2 rows): axis %3 of its variance / bar %4, split %5 / edge %6: %7")
        .arg(t.cluster)
        .arg(t.rows)
        .arg(share(t.axisShare), share(t.axisBar), share(t.splitShare), share(t.splitEdge),
             QString::fromStdString(toString(t.verdict)));
}

QString growthNote(const GrowthLog& log)
{
    if (log.stop == GrowthStop::NotGrown) return {};
    QStringList lines{wrapped(QString::fromStdString(describeGrowthStop(log)))};
    std::vector<SplitTestRecord> tests = splitTestsOf(log, log.stopRound);
    if (log.stop == GrowthStop::NoSplit && !tests.empty()) {
        // Nearest their bars first; those too small to test (too few rows, a child of
        // one row) last, whatever their shares.
        const auto margin = [](const SplitTestRecord& t) { return measured(t) ? t.axisShare - t.axisBar : -INFINITY; };
        std::stable_sort(tests.begin(), tests.end(), [&](const auto& a, const auto& b) { return margin(a) > margin(b); });
        const std::size_t shown = std::min(kTestsListed, tests.size());
        QString where = QString::fromStdString(stoppingRound(log));
        where[0] = where[0].toUpper();
        lines << QObject::tr("%1: split tests nearest their bars (%2 of %3):").arg(where).arg(shown).arg(tests.size());
        for (std::size_t i = 0; i < shown; ++i) lines << splitTestText(tests[i]);
    }
    return lines.join('\n');
}

}  // namespace clusterdesk::ui
