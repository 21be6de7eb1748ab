#include "output_file.h"

#include "error.h"
#include "file_kind.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace clusterdesk {
namespace {

namespace fs = std::filesystem;

// The file a path ends up naming: symbolic links followed, `..` resolved, even where
// the file does not exist yet.
fs::path resolved(const std::string& path)
{
    std::error_code ec;
    fs::path result = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::absolute(path) : result;
}

bool sameFile(const std::string& a, const std::string& b)
{
    if (resolved(a) == resolved(b)) return true;
    // Hard links and bind mounts: two names, one inode.
    struct stat sa {}, sb {};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// The process's umask, read without changing it (umask(2) can only read by setting,
// which would race with other threads creating files).
mode_t processUmask()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    return 022;
}

// ".NAME.XXXXXX" for mkstemp: hidden, beside the target, on the same file system.
std::string hiddenPattern(const fs::path& target)
{
    std::string name = ".";
    name += target.filename().string();
    name += ".XXXXXX";
    return name;
}

// Closes the descriptor and removes the temporary file unless the write succeeded.
class TemporaryFile {
public:
    explicit TemporaryFile(const fs::path& target) : m_name(target.parent_path() / hiddenPattern(target))
    {
        std::string pattern = m_name.string();
        m_fd = ::mkstemp(pattern.data());
        if (m_fd < 0) throw OutputError("cannot write " + target.string() + ": cannot create a temporary file in " + target.parent_path().string() + ": " + std::strerror(errno));
        m_name = pattern;
    }
    ~TemporaryFile()
    {
        if (m_fd >= 0) ::close(m_fd);
        if (!m_kept) ::unlink(m_name.c_str());
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    int fd() const { return m_fd; }
    const fs::path& name() const { return m_name; }
    // Closes the descriptor; false (errno set) when the last writes failed.
    bool close()
    {
        const int fd = m_fd;
        m_fd = -1;
        return ::close(fd) == 0;
    }
    void keep() { m_kept = true; }

private:
    fs::path m_name;
    int m_fd = -1;
    bool m_kept = false;
};

// A file the user marked read-only (no write permission for them, or for anyone: root
// may write anything) is not replaced: renaming a new file over it would get round the
// very permission that protects it. Empty when it may be replaced or does not exist.
std::string readOnlyReason(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    if (::access(path.c_str(), W_OK) == 0 && (st.st_mode & 0222) != 0) return {};
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    const std::string what = (st.st_mode & 0222) == 0 ? "the file is read-only (mode " + std::string(mode) + ")"
                                                      : "the file is not writable by this user (mode " + std::string(mode) + ", owner uid " +
                                                            std::to_string(st.st_uid) + ")";
    return what + ", so it is not replaced: make it writable or choose another file";
}

}  // namespace

const ProtectedFile* protectedFileNamed(const std::string& path, const std::vector<ProtectedFile>& protectedFiles)
{
    for (const ProtectedFile& file : protectedFiles) {
        if (!file.path.empty() && sameFile(path, file.path)) return &file;
    }
    return nullptr;
}

void checkOutputPath(const std::string& option, const std::string& path, const std::vector<ProtectedFile>& protectedFiles)
{
    const std::string where = option + " " + path;
    if (path.empty()) throw UsageError(option + " needs a file name");
    if (const ProtectedFile* file = protectedFileNamed(path, protectedFiles))
        throw UsageError(where + " would overwrite " + file->role + " (" + file->path + "); choose another file");
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw UsageError(where + ": it is " + fileKindName(st.st_mode) + "; outputs are written to regular files");
    if (const std::string why = readOnlyReason(path); !why.empty()) throw UsageError(where + ": " + why);
    const fs::path target = resolved(path);
    const fs::path folder = target.parent_path();
    if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw UsageError(where + ": the folder " + folder.string() + " does not exist");
    // The one sure test that the output can be written later (permissions, a read-only
    // medium, /proc): create the temporary file it will be written through, and drop it.
    try {
        TemporaryFile probe(target);
    } catch (const OutputError& e) {
        throw UsageError(where + ": " + e.what());
    }
}

void writeFileReplacing(const std::string& path, std::string_view content)
{
    const fs::path target = resolved(path);
    if (const std::string why = readOnlyReason(target.string()); !why.empty()) throw OutputError("cannot write " + path + ": " + why);
    TemporaryFile temporary(target);
    auto fail = [&](const char* what) { throw OutputError("cannot write " + path + ": " + what + ": " + std::strerror(errno)); };
    // mkstemp makes the file private (0600); an output gets the permissions an ordinary
    // new file would, or those of the file it replaces.
    struct stat st {};
    mode_t mode = 0666;
    if (::stat(target.c_str(), &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode &= ~processUmask();
    }
    if (::fchmod(temporary.fd(), mode) != 0) fail("setting permissions");
    for (std::size_t done = 0; done < content.size();) {
        const ssize_t n = ::write(temporary.fd(), content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("write failed");
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(temporary.fd()) != 0) fail("flush to disk failed");
    if (!temporary.close()) fail("close failed");
    if (::rename(temporary.name().c_str(), target.c_str()) != 0) fail("rename into place failed");
    temporary.keep();
}

}  // namespace clusterdesk
