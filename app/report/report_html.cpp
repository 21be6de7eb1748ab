#include "report_html.h"

#include "engine/cluster/cluster_codec.h"
#include "engine/cluster/params.h"
#include "engine/core/units.h"
#include "engine/data/source_spec.h"
#include "engine/exec/topology.h"

#include <nlohmann/json.hpp>

#include <QDateTime>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace clusterdesk::report {
namespace {

using nlohmann::json;

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString num(double value, int precision = 4)
{
    return QString::number(value, 'g', precision);
}

// The engine's wording, as every front end writes durations, energies, returns and threads.
QString duration(double seconds)
{
    return QString::fromStdString(formatSeconds(seconds));
}

QString energy(double joules)
{
    return QString::fromStdString(formatJoules(joules));
}

// Returns per period as percentages, as the window's Members tab shows them.
QString percent(double fraction)
{
    return QString::fromStdString(formatPercent(fraction));
}

QString threadsText(int threads)
{
    return QString::fromStdString(clusterdesk::threadsText(threads));
}

json metricsOf(const store::RunRecord& record)
{
    json metrics = json::parse(record.info.metricsJson, nullptr, false);
    return metrics.is_object() ? metrics : json::object();
}

double numberOr(const json& j, const char* key, double fallback)
{
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

QString shortId(const std::string& id)
{
    return QString::fromStdString(id).left(8);
}

bool isPrices(const RunSection& run)
{
    return run.record.dataset.layout == "prices" || run.record.dataset.layout == "ticks";
}

// What a run read, as its sentence and Dataset section name it: "the <location> demo",
// "<location> (prices)". location: the spec's own, or shortLocation's.
QString sourceText(const store::RunRecord& record, const std::string& location)
{
    const SourceSpec& spec = record.info.dataSource;
    QString text = spec.source == "demo" ? QString("the %1 demo").arg(esc(location))
                                         : QString("%1 (%2)").arg(esc(location), esc(spec.source.empty() ? record.dataset.layout : spec.source));
    return text;
}

// A location short enough for a table cell: a demo's kind without its options, a file's
// name without its folders (the run's Dataset section spells both out); a feed's URL whole.
std::string shortLocation(const SourceSpec& spec)
{
    if (spec.source == "demo") return spec.location.substr(0, spec.location.find(':'));
    if (spec.source == kLiveSource) return spec.location;
    return std::filesystem::path(spec.location).filename().string();
}

// The dataset in a table cell: named short, with the start of its content hash, which
// tells apart any two datasets the short name does not (other options, a changed file).
QString datasetCell(const store::RunRecord& record)
{
    return sourceText(record, shortLocation(record.info.dataSource)) + " <code>" + esc(record.info.datasetHash.substr(0, 8)) + "</code>";
}

// The document being written, with the helpers every section shares.
class Writer {
public:
    Writer(const ReportContent& content, const std::vector<std::vector<RenderedPlot>>& plots, ReportTarget target)
        : m_content(content), m_plots(plots), m_target(target)
    {
    }

    QString write()
    {
        head();
        contents();
        summary();
        int plotIndex = 0;
        for (std::size_t i = 0; i < m_content.runs.size(); ++i) runSections(m_content.runs[i], m_plots.at(i), plotIndex);
        environment();
        evidence();
        m_out += "</body>\n</html>\n";
        return m_out;
    }

private:
    QString anchor(const RunSection& run, const char* part) const
    {
        return QString("run-%1-%2").arg(shortId(run.record.info.id), part);
    }

    // newPage: in the PDF, the heading starts a page (Qt's text layout knows no
    // keep-with-next, and a graph too tall for the rest of a page left its heading alone
    // at the bottom).
    void heading(int level, const QString& id, const QString& text, bool newPage = false)
    {
        const QString style = newPage && m_target == ReportTarget::Pdf ? " style=\"page-break-before: always\"" : "";
        m_out += QString("<h%1 id=\"%2\"%4>%3</h%1>\n").arg(level).arg(id, text, style);
    }

    void facts(const std::vector<std::pair<QString, QString>>& rows)
    {
        m_out += "<table class=\"facts\">\n";
        for (const auto& [name, value] : rows) m_out += QString("<tr><th>%1</th><td>%2</td></tr>\n").arg(esc(name), value);
        m_out += "</table>\n";
    }

    // cellClasses: the CSS class of each column's cells, empty for none.
    void table(const QStringList& headers, const std::vector<QStringList>& rows, const QString& cssClass = "grid",
               const QStringList& cellClasses = {})
    {
        m_out += "<table class=\"" + cssClass + "\">\n<tr>";
        for (const QString& h : headers) m_out += "<th>" + esc(h) + "</th>";
        m_out += "</tr>\n";
        for (const QStringList& row : rows) {
            m_out += "<tr>";
            for (qsizetype i = 0; i < row.size(); ++i) {
                const QString cellClass = cellClasses.value(i);
                m_out += (cellClass.isEmpty() ? QString("<td>") : "<td class=\"" + cellClass + "\">") + row[i] + "</td>";
            }
            m_out += "</tr>\n";
        }
        m_out += "</table>\n";
    }

    void head()
    {
        const QString title = esc(m_content.title);
        m_out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" + title + "</title>\n";
        // Print-friendly: no colours that need a screen, tables that break between rows.
        m_out += "<style>\n"
                 "body { font-family: sans-serif; font-size: 10pt; margin: 2em; color: #111; }\n"
                 "h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 1.5em; border-bottom: 1px solid #999; } h3 { font-size: 12pt; }\n"
                 "table { border-collapse: collapse; margin: 0.5em 0; } th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; vertical-align: top; }\n"
                 "table.facts th { background: #eee; } table.grid th { background: #ddd; }\n"
                 // The summary's one-word headers whole: a narrow PDF page broke them
                 // mid-word ("Algorith" / "m"); longer headers wrap between words.
                 "table.grid { font-size: 9pt; } table.summary th { white-space: nowrap; }\n"
                 // Its ten columns fit an A4 page smaller and closer. Qt breaks a squeezed
                 // cell anywhere ("4de2bf" / "b5"): ids, words and numbers stay whole, the
                 // dataset, topology, time and energy wrap.
                 "table.summary th, table.summary td { font-size: 8pt; padding: 2px 4px; } td.whole { white-space: nowrap; }\n"
                 "td.hash, pre { font-family: monospace; font-size: 8pt; } pre { white-space: pre-wrap; }\n"
                 "figure { margin: 1em 0; page-break-inside: avoid; } figcaption { font-style: italic; }\n"
                 "tr { page-break-inside: avoid; }\n"
                 "</style>\n</head>\n<body>\n";
        m_out += "<h1>" + title + "</h1>\n";
        // One arg() call for every text: a % in a path must not be read as a placeholder.
        m_out += QString("<p>ClusterDesk report, exported %1 from the run store %2. Hash chain head at export: record #%3, seal <code>%4</code>.</p>\n")
                     .arg(esc(m_content.evidence.exportedAt), esc(m_content.evidence.store), QString::number(m_content.evidence.head.seq),
                          esc(m_content.evidence.head.hash));
    }

    void contents()
    {
        m_out += "<h2 id=\"contents\">Contents</h2>\n<ol>\n<li><a href=\"#summary\">Summary</a></li>\n";
        for (const RunSection& run : m_content.runs) {
            m_out += QString("<li><a href=\"#%1\">Run %2</a>: dataset, parameters, results, clusters, membership, graphs, lineage</li>\n")
                         .arg(anchor(run, "top"), shortId(run.record.info.id));
        }
        m_out += "<li><a href=\"#environment\">Environment</a></li>\n<li><a href=\"#evidence\">Evidence and provenance</a></li>\n</ol>\n";
    }

    QString sentence(const RunSection& run) const
    {
        const store::RunRecord& r = run.record;
        const json metrics = metricsOf(r);
        const bool prices = isPrices(run);
        const int iterations = static_cast<int>(numberOr(metrics, "iterations", static_cast<double>(r.iterations.size())));
        const QString ending = r.info.status == store::RunStatus::Cancelled ? "cancelled"
                               : metrics.value("converged", false)         ? "converged"
                                                                           : "stopped at the iteration limit";
        // Concatenated, not arg()-chained: a file name may hold "%1".
        QString text = esc(r.info.algorithm) + " clustered " + QString::number(r.dataset.rows) + (prices ? " assets" : " rows") + " &#215; " +
                       QString::number(r.dataset.cols) + (prices ? " returns" : " columns") + " from " +
                       sourceText(r, r.info.dataSource.location) + " into <b>k = " + QString::number(r.k) + "</b> clusters in " +
                       duration(numberOr(metrics, "seconds_total", 0)) + " (" +
                       QString::number(iterations) + " iterations, " + ending + ") on " + esc(r.info.topology) + " (" + esc(r.info.backend) +
                       " backend, " + threadsText(r.info.threads) + ")";
        if (r.info.energyJ) text += ", using " + energy(*r.info.energyJ) + " (" + esc(r.info.energySource) + ")";
        text += ". Inertia " + num(numberOr(metrics, "inertia", 0), 6);
        if (run.quality.silhouette) text += "; silhouette " + num(*run.quality.silhouette, 3);
        if (run.quality.ari) text += "; ARI " + num(*run.quality.ari, 4) + " against the dataset's ground truth";
        return text + ".";
    }

    void summary()
    {
        heading(2, "summary", "Summary");
        for (const RunSection& run : m_content.runs)
            m_out += QString("<p><b>Run %1</b> (%2): %3</p>\n").arg(shortId(run.record.info.id), esc(store::toString(run.record.info.status)), sentence(run));
        if (m_content.runs.size() < 2) return;
        std::vector<QStringList> rows;
        for (const RunSection& run : m_content.runs) {
            const json metrics = metricsOf(run.record);
            rows.push_back({shortId(run.record.info.id), datasetCell(run.record), esc(run.record.info.algorithm), esc(run.record.info.mode),
                            esc(run.record.info.topology), QString::number(run.record.k), num(numberOr(metrics, "inertia", 0), 6),
                            duration(numberOr(metrics, "seconds_total", 0)),
                            run.record.info.energyJ ? energy(*run.record.info.energyJ) : QString("-"),
                            run.quality.ari ? num(*run.quality.ari, 4) : QString("-")});
        }
        // Mode and dataset beside the measures: a fast run's inertia against an exact one's,
        // or runs on different data, are not the same comparison.
        table({"Run", "Dataset", "Algorithm", "Mode", "Topology", "k", "Inertia", "Time", "Energy", "ARI vs truth"}, rows, "grid summary",
              {"whole", "", "whole", "whole", "", "whole", "whole", "", "", "whole"});
    }

    void runSections(const RunSection& run, const std::vector<RenderedPlot>& plots, int& plotIndex)
    {
        const store::RunRecord& r = run.record;
        heading(2, anchor(run, "top"), "Run " + esc(r.info.id));
        datasetSection(run);
        parametersSection(run);
        resultsSection(run);
        clustersSection(run);
        membershipSection(run);
        graphsSection(run, plots, plotIndex);
        lineageSection(run);
    }

    void datasetSection(const RunSection& run)
    {
        const store::RunRecord& r = run.record;
        heading(3, anchor(run, "dataset"), "Dataset");
        QStringList options;
        for (const auto& [key, value] : r.info.dataSource.options) options << esc(key) + " = " + esc(value);
        std::vector<std::pair<QString, QString>> rows = {
            {"Source", sourceText(r, r.info.dataSource.location)},
            {"Content hash (SHA-256)", "<code>" + esc(r.info.datasetHash) + "</code>"},
            {"Shape", QString("%1 rows &#215; %2 columns (%3)").arg(r.dataset.rows).arg(r.dataset.cols).arg(esc(r.dataset.layout))},
            {"Options", options.isEmpty() ? QString("defaults") : options.join("; ")},
            {"First seen", esc(r.dataset.firstSeen)}};
        if (run.data) {
            QStringList notes;
            for (const std::string& note : run.data->notes) notes << esc(note);
            rows.push_back({"What loading did", notes.isEmpty() ? QString("nothing to note") : notes.join("<br/>")});
        } else {
            rows.push_back({"Reopened", "no: " + esc(run.dataProblem)});
        }
        facts(rows);
    }

    void parametersSection(const RunSection& run)
    {
        heading(3, anchor(run, "parameters"), "Parameters");
        const json params = codec::paramsThatApplied(json::parse(run.record.info.paramsJson, nullptr, false));
        std::vector<std::pair<QString, QString>> rows;
        if (params.is_object())
            for (const auto& [key, value] : params.items()) rows.push_back({QString::fromStdString(key), esc(value.is_string() ? value.get<std::string>() : value.dump())});
        rows.push_back({"topology", esc(run.record.info.topology)});
        rows.push_back({"threads", threadsText(run.record.info.threads)});
        facts(rows);
    }

    void resultsSection(const RunSection& run)
    {
        const store::RunRecord& r = run.record;
        const json metrics = metricsOf(r);
        heading(3, anchor(run, "results"), "Results");
        std::vector<std::pair<QString, QString>> rows = {
            {"Status", esc(store::toString(r.info.status)) + (r.info.failure.empty() ? QString() : ": " + esc(r.info.failure))},
            {"Clusters (k)", QString::number(r.k)},
            {"Iterations", QString::number(static_cast<int>(numberOr(metrics, "iterations", static_cast<double>(r.iterations.size()))))},
            {"Inertia", num(numberOr(metrics, "inertia", 0), 8)}};
        if (run.quality.bic) rows.push_back({"BIC (spherical Gaussian, higher is better)", num(*run.quality.bic, 8)});
        if (run.quality.silhouette)
            rows.push_back({"Silhouette", num(*run.quality.silhouette, 4) + QString(" (%1 rows scored against all)").arg(run.quality.silhouetteRows)});
        if (run.quality.ari) rows.push_back({"ARI against the ground truth", num(*run.quality.ari, 4)});
        if (run.quality.nmi) rows.push_back({"NMI against the ground truth", num(*run.quality.nmi, 4)});
        rows.push_back({"Time", duration(numberOr(metrics, "seconds_total", 0)) + ", " + num(numberOr(metrics, "ms_per_iteration", 0), 4) + " ms per iteration"});
        if (metrics.contains("phases_ms") && metrics["phases_ms"].is_object()) {
            QStringList phases;
            double phasedMs = 0;
            for (const auto& [phase, ms] : metrics["phases_ms"].items()) {
                if (!ms.is_number()) continue;
                phases << QString("%1 %2 ms").arg(QString::fromStdString(phase), num(ms.get<double>(), 4));
                phasedMs += ms.get<double>();
            }
            // What no phase counts (AdaptGrow's tests, a pool's launch), so the parts add up.
            phases << QString("other %1 ms").arg(num(std::max(0.0, 1e3 * numberOr(metrics, "seconds_total", 0) - phasedMs), 4));
            rows.push_back({"Time by phase", phases.join(", ")});
        }
        if (r.info.energyJ) rows.push_back({"Energy", energy(*r.info.energyJ) + " (" + esc(r.info.energySource) + ")"});
        if (metrics.contains("points_per_joule")) rows.push_back({"Point-iterations per joule", num(numberOr(metrics, "points_per_joule", 0), 4)});
        rows.push_back({"Recorded by", QString("ClusterDesk %1 (commit %2) on %3, %4 to %5")
                                          .arg(esc(r.info.engineVersion), esc(r.info.gitCommit), esc(r.info.host), esc(r.info.startedAt), esc(r.info.endedAt))});
        QStringList devices;
        for (const std::string& d : r.info.devices) devices << esc(d);
        rows.push_back({"Devices", devices.isEmpty() ? QString("-") : devices.join("<br/>")});
        facts(rows);
    }

    void clustersSection(const RunSection& run)
    {
        heading(3, anchor(run, "clusters"), "Clusters");
        if (!run.membership) {
            m_out += "<p>No per-cluster statistics: " + esc(run.dataProblem) + ".</p>\n";
            return;
        }
        const bool prices = !run.data->returnMean.empty();
        QStringList headers = {"Cluster", "Size", "Mean distance to centroid"};
        if (prices) headers << "Mean log return per period" << "Volatility per period";
        headers << "Most central members";
        std::vector<QStringList> rows;
        for (const ClusterProfile& c : run.membership->clusters) {
            QStringList row = {QString::number(c.cluster), QString::number(c.size), num(c.meanDistance, 4)};
            if (prices) row << (c.meanReturn ? percent(*c.meanReturn) : "-") << (c.volatility ? percent(*c.volatility) : "-");
            QStringList central;
            for (const std::string& name : c.central) central << esc(name);
            row << central.join(", ");
            rows.push_back(row);
        }
        table(headers, rows);
    }

    void membershipSection(const RunSection& run)
    {
        heading(3, anchor(run, "membership"), "Membership");
        if (!run.membership) {
            m_out += "<p>No membership table: " + esc(run.dataProblem) + ".</p>\n";
            return;
        }
        if (m_target == ReportTarget::Pdf) {
            // One paragraph per cluster, nearest the centroid first; the labels CSV beside
            // the PDF (labelsCsv: id,cluster) has every row's cluster.
            m_out += "<p>Members of each cluster, nearest the centroid first (every row's cluster is in the labels CSV written beside this document).</p>\n";
            std::size_t i = 0;
            const std::vector<Member>& members = run.membership->members;
            for (const ClusterProfile& c : run.membership->clusters) {
                QStringList names;
                for (; i < members.size() && members[i].cluster == c.cluster; ++i) names << esc(members[i].name);
                m_out += QString("<p><b>Cluster %1</b> (%2): %3</p>\n").arg(c.cluster).arg(c.size).arg(names.join(", "));
            }
            return;
        }
        std::vector<QStringList> rows;
        rows.reserve(run.membership->members.size());
        for (const Member& m : run.membership->members) rows.push_back({esc(m.name), QString::number(m.cluster), num(m.distance, 5)});
        table({"Asset", "Cluster", "Distance to centroid"}, rows);
    }

    void graphsSection(const RunSection& run, const std::vector<RenderedPlot>& plots, int& plotIndex)
    {
        heading(3, anchor(run, "graphs"), "Graphs", true);
        if (!run.data) m_out += "<p>No Clusters graph: " + esc(run.dataProblem) + ".</p>\n";
        for (const RenderedPlot& plot : plots) {
            const QString id = anchor(run, plot.name.toLatin1().constData());
            if (m_target == ReportTarget::Html) {
                m_out += "<figure id=\"" + id + "\">\n" + QString::fromUtf8(plot.svg) + "\n<figcaption>" + esc(plot.title) + "</figcaption>\n</figure>\n";
            } else {
                // Qt's text engine knows no <figure>: a paragraph for the graph, one for its caption.
                m_out += QString("<p id=\"%1\"><img src=\"%2\" alt=\"%3\"/></p>\n<p><i>%3</i></p>\n").arg(id, plotPlaceholder(plotIndex), esc(plot.title));
            }
            ++plotIndex;
        }
    }

    void lineageSection(const RunSection& run)
    {
        heading(3, anchor(run, "lineage"), "Lineage");
        std::vector<QStringList> rows;
        for (const store::LineageEdge& e : run.record.lineage)
            rows.push_back({esc(e.relation), esc(e.srcKind) + " <code>" + esc(e.src) + "</code>", esc(e.dstKind) + " <code>" + esc(e.dst) + "</code>",
                            esc(e.createdAt)});
        table({"Relation", "From", "To", "When"}, rows);
    }

    void environment()
    {
        heading(2, "environment", "Environment");
        m_out += "<p>Each run's own environment (version, commit, host, backend, devices) is under its Results. This document was exported by:</p>\n";
        std::vector<std::pair<QString, QString>> rows;
        for (const auto& [name, value] : m_content.environment) rows.push_back({QString::fromStdString(name), esc(value)});
        facts(rows);
    }

    void evidence()
    {
        heading(2, "evidence", "Evidence and provenance");
        const ReportEvidence& e = m_content.evidence;
        m_out += QString("<p>When this report was exported the store's hash chain ended at record #%1, sealed <code>%2</code>. "
                         "The store records this file's SHA-256 as a report of the runs below. To check that nothing cited has "
                         "changed since: <code>clusterdesk-cli runs verify --report FILE</code>.</p>\n")
                     .arg(e.head.seq)
                     .arg(esc(e.head.hash));
        std::vector<QStringList> rows;
        for (const CitedRun& run : e.runs)
            rows.push_back({"<code>" + esc(run.id) + "</code>", QString::number(run.chainSeq), "<code>" + esc(run.recordHash) + "</code>",
                            "<code>" + esc(run.datasetHash) + "</code>"});
        table({"Run", "Chain record", "Record seal", "Dataset hash"}, rows);
        m_out += QString("<pre id=\"%1\">").arg(kEvidenceElementId) + esc(toJson(e)) + "</pre>\n";
    }

    const ReportContent& m_content;
    const std::vector<std::vector<RenderedPlot>>& m_plots;
    ReportTarget m_target;
    QString m_out;
};

}  // namespace

QString plotPlaceholder(int index)
{
    return QString("plot:%1").arg(index);
}

int plotPlaceholderIndex(const QString& name)
{
    if (!name.startsWith("plot:")) return -1;
    bool ok = false;
    const int index = name.mid(5).toInt(&ok);
    return ok ? index : -1;
}

QString reportHtml(const ReportContent& content, const std::vector<std::vector<RenderedPlot>>& plots, ReportTarget target)
{
    return Writer(content, plots, target).write();
}

}  // namespace clusterdesk::report
