#include "process_memory.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace clusterdesk {

ProcessMemory processMemory()
{
    ProcessMemory memory;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) memory.residentMiB = std::strtod(line.c_str() + 6, nullptr) / 1024.0;
        if (line.rfind("VmHWM:", 0) == 0) memory.peakMiB = std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    }
    return memory;
}

}  // namespace clusterdesk
