// Output files that never destroy anything: not what a run reads, not the run store,
// not the previous version of the output itself when a write fails half-way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clusterdesk {

// A file an output must never replace, and the option or role that names it
// ("--data", "the run store", ...), for the message.
struct ProtectedFile {
    std::string path;
    std::string role;
};

// The protected file that `path` names through any spelling, symbolic or hard link;
// null when none. Only stat(2): no file is opened.
const ProtectedFile* protectedFileNamed(const std::string& path, const std::vector<ProtectedFile>& protectedFiles);

// Refuses (UsageError, naming `option` and `path`) an output that is, through any
// spelling, symbolic or hard link, one of `protectedFiles`; that exists and is not a
// regular file (/dev/full, /proc/version, a FIFO, a folder); or whose folder is missing
// or not writable. Cheap: called before a run, so a bad path fails at once.
void checkOutputPath(const std::string& option, const std::string& path, const std::vector<ProtectedFile>& protectedFiles);

// Writes `content` to a temporary file beside `path`, flushes it to the disk and renames
// it over `path` (through a symbolic link, the link's target). On any failure the
// temporary file is removed, `path` keeps what it held, and OutputError names it.
void writeFileReplacing(const std::string& path, std::string_view content);

}  // namespace clusterdesk
