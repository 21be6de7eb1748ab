#include "report_command.h"

#include "cli_arguments.h"
#include "cli_errors.h"

#include "app/report/report_writer.h"
#include "engine/core/error.h"
#include "engine/core/printable.h"
#include "engine/core/vector_state.h"

#include <QApplication>

#include <iostream>
#include <limits>

namespace clusterdesk::cli {

int reportCommand(const std::vector<std::string>& args)
{
    return exitCodeOf([&] {
        const Arguments a = parseArguments("report", args, 1, std::numeric_limits<std::size_t>::max(), {"--out", "--title"}, {});
        if (a.value("--out").empty()) throw UsageError("report needs --out FILE.html or --out FILE.pdf");
        // The graphs are widgets drawn off screen: no display is needed or used.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "clusterdesk-cli";
        static char* argv[] = {name, nullptr};
        QApplication app(argc, argv);
        clearUpperVectorState();  // or reopening the data runs its SSE code many times slower (vector_state.h)
        const auto runStore = openStore(a.value("--db"), store::StoreAccess::ReadWrite);
        const report::WrittenReport written = report::writeReport(*runStore, {a.positional, a.value("--out"), a.value("--title")});
        for (const auto& file : written.files) std::cout << "wrote     " << printable(file.string()) << '\n';
        std::cout << "recorded  report " << written.sha256 << " citing " << written.runIds.size() << (written.runIds.size() == 1 ? " run" : " runs")
                  << " in " << runStore->path() << " (check it later: clusterdesk-cli runs verify --report " << printable(a.value("--out")) << ")\n";
        return kExitOk;
    });
}

}  // namespace clusterdesk::cli
