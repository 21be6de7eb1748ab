// What a path names when it is not a regular file, for messages that refuse it.
#pragma once

#include <sys/stat.h>

namespace clusterdesk {

// "a directory", "a FIFO", "a character device", ... for a stat(2) mode.
inline const char* fileKindName(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISREG(mode)) return "a regular file";
    return "not a plain file";
}

}  // namespace clusterdesk
