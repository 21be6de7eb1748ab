// clusterdesk-cli report and runs verify --report, as a user and an auditor meet them:
// a report of the market demo run as PDF (every page rendered non-blank by pdftoppm,
// its text read back by pdftotext: asset names of the membership, the dataset hash, the
// chain head) and as HTML (well-formed, no external reference, every graph inline);
// verification passes on the untouched store and names the problem after the newest
// run is deleted outside the store, after a cited record is edited, and after the
// chain's tail is rewritten consistently with the key (which `runs verify` alone
// accepts); bad requests leave no file behind.
#include "cli_runner.h"

#include "engine/store/run_chain.h"
#include "engine/store/sqlite_db.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>
#include <filesystem>
#include <optional>
#include <utility>

namespace {

// Small enough to run in a second, with named assets in planted sectors.
const QString kMarket = "market:assets=60,sectors=4,days=300,seed=3";

QString describe(const CliResult& r)
{
    return QString("exit %1\nstdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out, r.err);
}

QString recordedId(const CliResult& result)
{
    const QRegularExpressionMatch match = QRegularExpression("recorded  run ([0-9a-f-]{36}) in ").match(result.out);
    return match.hasMatch() ? match.captured(1) : QString();
}

// What a poppler tool printed, or nothing when it failed.
std::optional<QString> tool(const QString& program, const QStringList& args)
{
    QProcess process;
    process.start(program, args);
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) return std::nullopt;
    return QString::fromUtf8(process.readAllStandardOutput());
}

QByteArray contentOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestCliReport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // A store with two runs of the market demo (the second in exact mode on two shards);
    // returns their ids, the newest last.
    QStringList twoRuns(const QString& db)
    {
        QStringList ids;
        for (const QStringList& extra : {QStringList{"--algo", "adaptgrow"}, QStringList{"--k", "4", "--mode", "exact", "--topology", "shards:2"}}) {
            const CliResult r = runCli(QStringList{"run", "--demo", kMarket, "--threads", "1", "--db", db, "--labels-out", db + ".labels.csv"} + extra);
            [&] { QVERIFY2(r.exitCode == 0, qPrintable(describe(r))); }();
            ids << recordedId(r);
        }
        return ids;
    }

    CliResult report(const QString& db, const QStringList& ids, const QString& out)
    {
        return runCli(QStringList{"report"} + ids + QStringList{"--out", out, "--db", db});
    }

    CliResult verify(const QString& db, const QString& reportFile)
    {
        return runCli({"runs", "verify", "--report", reportFile, "--db", db});
    }

private slots:
    void initTestCase()
    {
        qputenv("CLUSTERDESK_CHAIN_KEY", m_dir.filePath("keys/chain.key").toUtf8());
        if (QStandardPaths::findExecutable("pdftotext").isEmpty() || QStandardPaths::findExecutable("pdftoppm").isEmpty())
            QFAIL("pdftotext and pdftoppm (poppler-utils) are needed: scripts/install-deps.sh installs them");
    }

    void pdfReportReadsBack()
    {
        const QString db = m_dir.filePath("pdf.sqlite");
        const QStringList ids = twoRuns(db);
        const QString pdf = m_dir.filePath("market.pdf");
        const CliResult r = report(db, {ids[0].left(8)}, pdf);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(QFile::exists(m_dir.filePath("market.provenance.json")));
        const QByteArray labels = contentOf(m_dir.filePath("market.labels.csv"));
        QVERIFY(labels.startsWith("id,cluster\n"));
        QCOMPARE(labels.count('\n'), 61);

        const QString text = tool("pdftotext", {"-layout", pdf, "-"}).value_or(QString());
        QVERIFY2(!text.isEmpty(), "pdftotext could not read the report");
        const QJsonObject show = [&] {
            const CliResult s = runCli({"runs", "show", ids[0], "--json", "--db", db});
            return QJsonDocument::fromJson(s.out.toUtf8()).object();
        }();
        const QString datasetHash = show["dataset_hash"].toString();
        QCOMPARE(datasetHash.size(), 64);
        // Long hashes may wrap in a table cell: compare without white space.
        QString flat = text;
        flat.remove(QRegularExpression("\\s"));
        QVERIFY2(flat.contains(datasetHash), "the dataset hash is not in the PDF's text");
        const QString head = QString::fromUtf8(contentOf(m_dir.filePath("market.provenance.json")));
        const QString seal = QRegularExpression("\"seal\": \"([0-9a-f]{64})\"").match(head).captured(1);
        QVERIFY2(!seal.isEmpty(), qPrintable(head));
        QVERIFY2(flat.contains(seal), "the chain head is not in the PDF's text");
        // Every asset of the membership by name (the labels CSV lists them all).
        for (const QByteArray& line : labels.split('\n').mid(1)) {
            if (line.isEmpty()) continue;
            const QString asset = QString::fromUtf8(line.split(',').front());
            QVERIFY2(text.contains(asset), qPrintable("asset " + asset + " is not in the PDF"));
        }
        for (const char* section : {"Summary", "Dataset", "Parameters", "Environment", "Results", "Clusters", "Membership", "Graphs", "Lineage", "Evidence"})
            QVERIFY2(text.contains(section), section);
        // The membership points to the labels CSV for what that file holds (id,cluster).
        QVERIFY2(text.simplified().contains("every row's cluster is in the labels CSV"), "the membership misstates the labels CSV");
        // Page numbers: each page's last line is its number.
        const QStringList pageTexts = text.split('\f', Qt::SkipEmptyParts);
        QVERIFY(pageTexts.size() >= 3);
        int graphPages = 0;
        for (int i = 0; i < pageTexts.size(); ++i) {
            const QStringList lines = pageTexts[i].trimmed().split('\n');
            QVERIFY2(lines.last().trimmed().endsWith(QString::number(i + 1)), qPrintable("page " + QString::number(i + 1) + " ends with " + lines.last()));
            // The graphs start a page: their heading is never left alone at a page's foot.
            if (pageTexts[i].contains("\nGraphs\n") || pageTexts[i].startsWith("Graphs\n")) {
                ++graphPages;
                QVERIFY2(lines.first().trimmed() == "Graphs", qPrintable("page " + QString::number(i + 1) + " has Graphs below " + lines.first()));
            }
        }
        QCOMPARE(graphPages, 1);

        // Every page rendered has ink on it.
        const QString prefix = m_dir.filePath("page");
        QVERIFY(tool("pdftoppm", {"-r", "50", "-gray", pdf, prefix}));
        const QStringList pages = QDir(m_dir.path()).entryList({"page*.pgm"}, QDir::Files, QDir::Name);
        QVERIFY2(pages.size() >= 3, qPrintable(QString::number(pages.size()) + " pages"));
        for (const QString& page : pages) {
            const QImage image(m_dir.filePath(page));
            QVERIFY(!image.isNull());
            int dark = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) dark += qGray(image.pixel(x, y)) < 160;
            QVERIFY2(dark > 20, qPrintable(page + " is blank"));
        }
        const CliResult verified = verify(db, pdf);
        QVERIFY2(verified.exitCode == 0, qPrintable(describe(verified)));
    }

    void assetNamesInEveryScriptReadBackFromThePdf()
    {
        // Names as a quant's universe spells them: A-shares, Tokyo and Seoul listings, an
        // accented European name. Each script needs a font that has it (install-deps.sh).
        const QStringList names = {"贵州茅台", "中国平安", "ソニーグループ", "トヨタ自動車", "삼성전자", "LG화학", "Nestlé", "Société Générale"};
        const QString csv = m_dir.filePath("scripts.csv");
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("id,r1,r2,r3\n");
        for (int i = 0; i < names.size(); ++i)
            file.write(QString("%1,%2,%3,%4\n").arg(names[i]).arg(i % 2 * 5 + 0.1 * i).arg(i % 2 * 5 - 0.1 * i).arg(0.05 * i).toUtf8());
        file.close();
        const QString db = m_dir.filePath("scripts.sqlite");
        const CliResult run = runCli({"run", "--data", csv, "--k", "2", "--db", db});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        const QString pdf = m_dir.filePath("scripts.pdf");
        const CliResult r = report(db, {recordedId(run)}, pdf);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString text = tool("pdftotext", {pdf, "-"}).value_or(QString());
        for (const QString& name : names) QVERIFY2(text.contains(name), qPrintable(name + " is not in the PDF's text: drawn as boxes? (scripts/install-deps.sh installs fonts-wqy-microhei)"));
    }

    void aReportUnderTheSameNameReplacesEveryLabelsFile()
    {
        // Two runs on two files; the second file is then deleted, so its run's rows have
        // no names any more. Its report, under the first one's name, must not leave the
        // first run's labels beside it.
        const QString db = m_dir.filePath("again.sqlite");
        QStringList ids;
        for (const QString& name : {"first", "second"}) {
            const QString csv = m_dir.filePath(name + ".csv");
            QFile file(csv);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("id,x,y\n");
            for (int i = 0; i < 6; ++i) file.write(QString("%1_%2,%3,%4\n").arg(name).arg(i).arg(i % 2 * 9 + 0.1 * i).arg(0.2 * i).toUtf8());
            file.close();
            const CliResult run = runCli({"run", "--data", csv, "--k", "2", "--db", db});
            QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
            ids << recordedId(run);
        }
        const QString pdf = m_dir.filePath("again.pdf");
        const QString labels = m_dir.filePath("again.labels.csv");
        QVERIFY2(report(db, {ids[0]}, pdf).exitCode == 0, "the first report failed");
        QVERIFY(contentOf(labels).contains("first_0,"));
        QVERIFY(QFile::remove(m_dir.filePath("second.csv")));
        const CliResult r = report(db, {ids[1]}, pdf);
        QVERIFY2(r.exitCode == 0 && r.out.contains("wrote     " + labels), qPrintable(describe(r)));
        const QByteArray now = contentOf(labels);
        QVERIFY2(now.startsWith("id,cluster\n0,") && !now.contains("first_") && now.count('\n') == 7, now.constData());
        // A run named twice, by its id and by a prefix, is cited once.
        const CliResult twice = report(db, {ids[0], ids[0].left(8)}, m_dir.filePath("twice.html"));
        QVERIFY2(twice.exitCode == 0 && twice.out.contains("citing 1 run in"), qPrintable(describe(twice)));
        QCOMPARE(contentOf(m_dir.filePath("twice.html")).count("id=\"run-" + ids[0].left(8).toUtf8() + "-top\""), 1);

        // One run, then both under the same name, then one again: each time only this
        // report's labels files stay beside it; a file of the user's is left alone.
        const QString perRun0 = m_dir.filePath("again." + ids[0].left(8) + ".labels.csv");
        const QString perRun1 = m_dir.filePath("again." + ids[1].left(8) + ".labels.csv");
        const QString users = m_dir.filePath("again.notes.labels.csv");
        QFile mine(users);
        QVERIFY(mine.open(QIODevice::WriteOnly) && mine.write("kept\n") == 5);
        mine.close();
        QVERIFY2(report(db, {ids[0], ids[1]}, pdf).exitCode == 0, "the two-run report failed");
        QVERIFY2(!QFile::exists(labels), "the one-run report's labels stayed beside the two-run report");
        QVERIFY(QFile::exists(perRun0) && QFile::exists(perRun1));
        QVERIFY2(report(db, {ids[1]}, pdf).exitCode == 0, "the one-run report failed");
        QVERIFY2(!QFile::exists(perRun0) && !QFile::exists(perRun1), "the two-run report's labels stayed beside the one-run report");
        QVERIFY(contentOf(labels).startsWith("id,cluster\n0,"));
        QCOMPARE(contentOf(users), QByteArray("kept\n"));
        // A labels file that a later run read as its data is that run's input: never taken away.
        QVERIFY2(report(db, {ids[0], ids[1]}, pdf).exitCode == 0, "the two-run report failed");
        const QByteArray read = contentOf(perRun0);
        const CliResult third = runCli({"run", "--data", perRun0, "--k", "2", "--db", db});
        QVERIFY2(third.exitCode == 0, qPrintable(describe(third)));
        QVERIFY2(report(db, {ids[1]}, pdf).exitCode == 0, "the one-run report failed");
        QCOMPARE(contentOf(perRun0), read);
    }

    void htmlReportIsSelfContained()
    {
        const QString db = m_dir.filePath("html.sqlite");
        const QStringList ids = twoRuns(db);
        const QString html = m_dir.filePath("both.html");
        const CliResult r = report(db, ids, html);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QByteArray bytes = contentOf(html);
        QXmlStreamReader xml(bytes);
        int svgs = 0, tables = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement()) continue;
            svgs += xml.name() == QLatin1String("svg");
            tables += xml.name() == QLatin1String("table");
            QVERIFY2(xml.name() != QLatin1String("script"), "a report runs no script");
            for (const char* attribute : {"href", "src", "xlink:href"}) {
                const QString link = xml.attributes().value(attribute).toString();
                QVERIFY2(link.isEmpty() || link.startsWith('#') || link.startsWith("data:"), qPrintable("external reference " + link));
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString() + " at line " + QString::number(xml.lineNumber())));
        // Two runs, each with Clusters, Evolution, Latency and Power.
        QCOMPARE(svgs, 8);
        QVERIFY(tables >= 10);
        QVERIFY(!bytes.contains("<link") && !bytes.contains("@import") && !bytes.contains("url("));
        // The membership table names every asset of both runs (the same 60).
        const QByteArray labels = contentOf(db + ".labels.csv");
        QCOMPARE(labels.count('\n'), 61);
        for (const QByteArray& line : labels.split('\n').mid(1))
            if (!line.isEmpty()) QVERIFY2(bytes.contains("<td>" + line.split(',').front() + "</td>"), line.constData());
        // The Evolution graph names what it draws, as the window's does: its legend in
        // the strip below the axes, in the lower half of the 440-pixel-high drawing
        // (left out, its entries were drawn unseen at the top).
        for (const QString& id : ids) {
            const qsizetype start = bytes.indexOf("<figure id=\"run-" + id.left(8).toUtf8() + "-evolution\"");
            QVERIFY(start >= 0);
            const QString figure = QString::fromUtf8(bytes.mid(start, bytes.indexOf("</figure>", start) - start));
            for (const QString& entry : {"cluster 0", "k \\(right axis\\)", "inertia \\(far right axis\\)"}) {
                const QRegularExpressionMatch text = QRegularExpression("<text[^>]* y=\"([0-9.]+)\"[^>]*>" + entry + "</text>").match(figure);
                QVERIFY2(text.hasMatch() && text.captured(1).toDouble() > 220,
                         qPrintable(QString("the Evolution graph of %1 shows no legend entry '%2' below it").arg(id.left(8), entry)));
            }
        }
        // Time by phase adds up to the run's time: what no phase counts is named "other".
        const QString text = QString::fromUtf8(bytes);
        const QRegularExpressionMatch total = QRegularExpression("Time</th><td>([0-9.]+) (µs|ms|s), ").match(text);
        const QRegularExpressionMatch parts = QRegularExpression("Time by phase</th><td>([^<]*, other [0-9.e+-]+ ms)<").match(text);
        QVERIFY2(total.hasMatch() && parts.hasMatch(), "no Time or Time by phase row with 'other'");
        double partsMs = 0;
        for (auto it = QRegularExpression("([0-9.e+-]+) ms").globalMatch(parts.captured(1)); it.hasNext();) partsMs += it.next().captured(1).toDouble();
        const double totalMs = total.captured(1).toDouble() * (total.captured(2) == "s" ? 1e3 : total.captured(2) == "ms" ? 1 : 1e-3);
        QVERIFY2(std::abs(partsMs - totalMs) <= 0.01 * totalMs + 0.01, qPrintable(parts.captured(1) + " against " + total.captured(0)));
        // The clusters' returns as percentages, as the Members tab shows them: for the
        // k = 4 run alone, four mean returns and four volatilities.
        QVERIFY2(QString::fromUtf8(bytes).count(QRegularExpression("<td>-?[0-9]+\\.[0-9]{3} %</td>")) >= 8, "the clusters' returns are not percentages");
        // The comparison table says each run's mode and dataset: the first run is fast,
        // the second exact, both on the demo (named with the start of its hash).
        const QString summary = QString::fromUtf8(bytes.mid(bytes.indexOf("<table class=\"grid summary\">"))).section("</table>", 0, 0);
        QVERIFY2(summary.contains("<th>Dataset</th>") && summary.contains("<th>Mode</th>"), qPrintable(summary));
        const QString datasetHash = QJsonDocument::fromJson(runCli({"runs", "show", ids[0], "--json", "--db", db}).out.toUtf8())
                                        .object()["dataset_hash"].toString();
        QCOMPARE(datasetHash.size(), 64);
        for (const auto& [id, mode] : {std::pair{ids[0], "fast"}, std::pair{ids[1], "exact"}}) {
            const QString row = QRegularExpression("<tr><td[^>]*>" + id.left(8) + "</td>.*</tr>").match(summary).captured();
            QVERIFY2(row.contains(QString(">%1</td>").arg(mode)) && row.contains("market demo") && row.contains(datasetHash.left(8)), qPrintable(summary));
        }
        const CliResult ok = verify(db, html);
        QVERIFY2(ok.exitCode == 0 && ok.out.contains("verify    ok"), qPrintable(describe(ok)));

        // A report edited after export is no longer the one the store recorded.
        QByteArray edited = bytes;
        edited.replace("Summary", "Summery");
        QFile file(html);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(edited) == edited.size());
        file.close();
        const CliResult changed = verify(db, html);
        QCOMPARE(changed.exitCode, 1);
        QVERIFY2(changed.out.contains("is not recorded in the store as a report"), qPrintable(describe(changed)));
    }

    void verifyNamesTampering_data()
    {
        QTest::addColumn<QString>("tampering");
        QTest::addColumn<QString>("expected");
        QTest::newRow("newest run deleted") << "delete" << "is not in the store";
        QTest::newRow("cited record edited") << "edit" << "does not match its seal";
        QTest::newRow("tail rewritten with the key") << "rewrite" << "is not the one the report quotes";
    }

    void verifyNamesTampering()
    {
        QFETCH(QString, tampering);
        QFETCH(QString, expected);
        const QString db = m_dir.filePath(tampering + ".sqlite");
        const QStringList ids = twoRuns(db);
        const QString html = m_dir.filePath(tampering + ".html");
        QVERIFY2(report(db, ids, html).exitCode == 0, "report");
        QVERIFY(verify(db, html).exitCode == 0);
        const std::string newest = ids[1].toStdString();
        {
            using namespace clusterdesk::store;
            Database file(db.toStdString());
            WriteTransaction transaction(file);
            if (tampering == "delete") {
                // What a script does to hide a run: every row of it, and the edges that cite it.
                for (const char* table : {"iterations", "telemetry", "artifacts"}) {
                    Statement remove(file, (std::string("DELETE FROM ") + table + " WHERE run_id = ?1").c_str());
                    remove.bindAll(newest).run();
                }
                Statement edges(file, "DELETE FROM chain_events WHERE kind = 'edge'");
                edges.run();
                Statement lineage(file, "DELETE FROM lineage WHERE src = ?1 OR dst = ?1 OR relation = 'report'");
                lineage.bindAll(newest).run();
                Statement run(file, "DELETE FROM runs WHERE id = ?1");
                run.bindAll(newest).run();
            } else {
                Statement edit(file, "UPDATE runs SET metrics = json_set(metrics, '$.inertia', 0.5) WHERE id = ?1");
                edit.bindAll(newest).run();
                if (tampering == "rewrite") {
                    // Re-sealed with the key, the report's edges dropped: a consistent chain.
                    Statement edges(file, "DELETE FROM chain_events WHERE kind = 'edge'");
                    edges.run();
                    Statement lineage(file, "DELETE FROM lineage WHERE relation = 'report'");
                    lineage.run();
                    Statement unchain(file, "UPDATE runs SET chain_seq = NULL, prev_hash = NULL, record_hash = NULL WHERE id = ?1");
                    unchain.bindAll(newest).run();
                    appendRunToChain(file, newest);
                }
            }
            transaction.commit();
            // The chain head remembered beside the store goes too (or is re-written).
            std::filesystem::remove(db.toStdString() + ".chain-head");
            rememberChainHead(file);
        }
        if (tampering != "edit") {
            const CliResult plain = runCli({"runs", "verify", "--db", db});
            QVERIFY2(plain.exitCode == 0, qPrintable("runs verify alone should not see this: " + describe(plain)));
        }
        const CliResult r = verify(db, html);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(expected), qPrintable(describe(r)));
        if (tampering != "edit") QVERIFY2(r.out.contains(ids[1]), qPrintable(describe(r)));
    }

    void badRequestsLeaveNothing()
    {
        const QString db = m_dir.filePath("bad.sqlite");
        const QStringList ids = twoRuns(db);
        const QString folder = m_dir.filePath("out");
        QVERIFY(QDir().mkpath(folder));

        CliResult r = report(db, {"ffffffff"}, folder + "/unknown.pdf");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("ffffffff"), qPrintable(describe(r)));

        r = report(db, {ids[0]}, m_dir.filePath("missing/folder/r.html"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("missing/folder"), qPrintable(describe(r)));

        r = report(db, {ids[0]}, folder + "/r.txt");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(".html or .pdf"), qPrintable(describe(r)));

        QVERIFY(runCli({"runs", "delete", ids[0], "--db", db}).exitCode == 0);
        QVERIFY(runCli({"runs", "gc", "--db", db}).exitCode == 0);
        r = report(db, {ids[0]}, folder + "/collected.pdf");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("removed by `runs gc`"), qPrintable(describe(r)));
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden), QStringList());

        // A report that is not there is missing input (exit 3), whichever its kind: a PDF
        // is not blamed on its evidence file.
        for (const QString& missing : {folder + "/none.html", folder + "/none.pdf"}) {
            r = verify(db, missing);
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.err.contains(missing + ": no such file"), qPrintable(describe(r)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
