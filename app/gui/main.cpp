// clusterdesk: the workstation. Until the window is built (the workstation issue),
// it runs the main job -- AdaptGrow on the embedded `market` demo -- and shows its
// summary: in a window when a display exists, on stdout when there is none.
#include "clusterdesk/version.h"
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"
#include "engine/exec/run_summary.h"

#include <QApplication>
#include <QFont>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QString>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

bool hasDisplay()
{
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && std::string(platform) == "offscreen") return false;
    return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
}

std::string runMainJob()
{
    using namespace clusterdesk;
    const Dataset data = makeDemo("market");
    KMeansParams params;
    params.algorithm = Algorithm::AdaptGrow;
    params.k0 = 2;
    params.kMax = 32;
    params.mode = kernels::Mode::Exact;
    const Topology topology = parseTopology("host");
    const RunReport report = runClustering(data, params, topology, 0);
    return runSummaryText({data, params, topology, report, data.contentHash(), 0, std::nullopt});
}

}  // namespace

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::puts("Usage: clusterdesk [--help | --version]\n\n"
                      "Clusters the embedded market demo (500 assets, 10 planted sectors) with AdaptGrow in\n"
                      "exact mode and shows the summary: in a window when a display exists, else on stdout.\n"
                      "For everything else use clusterdesk-cli (see clusterdesk-cli --help).");
            return 0;
        }
        if (arg == "--version") {
            std::puts("clusterdesk " CLUSTERDESK_VERSION " (commit " CLUSTERDESK_GIT_COMMIT ")");
            return 0;
        }
        std::fprintf(stderr, "clusterdesk: unknown argument '%s' (see clusterdesk --help)\n", arg.c_str());
        return 2;
    }
    std::string summary;
    try {
        summary = runMainJob();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clusterdesk: %s\n", e.what());
        return 4;
    }
    if (!hasDisplay()) {
        std::fputs(summary.c_str(), stdout);
        return 0;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName("ClusterDesk");
    QApplication::setApplicationVersion(CLUSTERDESK_VERSION);
    QMainWindow window;
    window.setWindowTitle("ClusterDesk " CLUSTERDESK_VERSION " - market demo");
    auto* text = new QPlainTextEdit(QString::fromStdString(summary), &window);
    text->setReadOnly(true);
    text->setFont(QFont("Monospace"));
    window.setCentralWidget(text);
    window.resize(900, 300);
    window.show();
    return QApplication::exec();
}
