// `clusterdesk-cli report RUN... --out FILE.html|FILE.pdf [--title TEXT] [--db PATH]`:
// a report of recorded runs (app/report), recorded in the store for
// `runs verify --report`. Built only with Qt.
#pragma once

#include <string>
#include <vector>

namespace clusterdesk::cli {

int reportCommand(const std::vector<std::string>& args);

}  // namespace clusterdesk::cli
