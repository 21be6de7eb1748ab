// clusterdesk-cli: the headless front end. Exit codes: 0 success, 2 usage error,
// 3 bad input data, 4 engine, device or run store error, 130 cancelled; 1 when a
// check failed (runs verify, runs rerun).
#include "cli_options.h"
#ifdef CLUSTERDESK_CLI_REPORT
#include "report_command.h"
#endif
#ifdef CLUSTERDESK_CLI_LIVE
#include "live_command.h"
#endif
#include "run_command.h"
#include "runs_command.h"
#include "whatif_command.h"

#include "clusterdesk/version.h"
#include "engine/core/error.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    using namespace clusterdesk;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << cli::usageText();
        return args.empty() ? cli::kExitUsage : 0;
    }
    if (args[0] == "--version") {
        std::cout << "clusterdesk-cli " << CLUSTERDESK_VERSION << " (commit " << CLUSTERDESK_GIT_COMMIT << ")\n";
        return 0;
    }
    // COMMAND ... --help, anywhere after a known command: that command's part of the help.
    const bool known = args[0] == "run" || args[0] == "runs" || args[0] == "whatif" || args[0] == "live" || args[0] == "report";
    for (std::size_t i = 1; known && i < args.size(); ++i) {
        if (args[i] == "--help" || args[i] == "-h") {
            std::cout << cli::usageOf(args[0]);
            return 0;
        }
    }
    if (args[0] == "runs") return cli::runsCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "whatif") return cli::whatifCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "live") {
#ifdef CLUSTERDESK_CLI_LIVE
        return cli::liveCommand(std::vector<std::string>(args.begin() + 1, args.end()));
#else
        std::cerr << "clusterdesk-cli: live needs a build with Qt (this one was configured with CLUSTERDESK_WITH_QT=OFF)\n";
        return cli::kExitUsage;
#endif
    }
    if (args[0] == "report") {
#ifdef CLUSTERDESK_CLI_REPORT
        return cli::reportCommand(std::vector<std::string>(args.begin() + 1, args.end()));
#else
        std::cerr << "clusterdesk-cli: report needs a build with Qt (this one was configured with CLUSTERDESK_WITH_QT=OFF)\n";
        return cli::kExitUsage;
#endif
    }
    if (args[0] != "run") {
        std::cerr << "clusterdesk-cli: unknown command '" << args[0] << "' (see clusterdesk-cli --help)\n";
        return cli::kExitUsage;
    }
    args.erase(args.begin());
    return cli::runCommand(args);
}
