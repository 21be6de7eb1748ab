// This process's memory as the kernel counts it (/proc/self/status): resident now
// (VmRSS) and at its peak (VmHWM, which, unlike getrusage's ru_maxrss, starts afresh
// at exec, so a large parent's memory at fork time is not counted as ours).
#pragma once

namespace clusterdesk {

struct ProcessMemory {
    double residentMiB = 0;  // 0 when unreadable
    double peakMiB = 0;
};

ProcessMemory processMemory();

}  // namespace clusterdesk
