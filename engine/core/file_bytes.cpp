#include "file_bytes.h"

#include "engine/core/error.h"
#include "engine/core/file_kind.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clusterdesk {
namespace {

void requireRegular(const std::string& path, const struct stat& info)
{
    if (!S_ISREG(info.st_mode))
        throw DataError(path, 0, 0, std::string("is not a regular file (") + fileKindName(info.st_mode) + ")");
}

std::uint64_t statRegular(const std::string& path)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw DataError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
    requireRegular(path, info);
    return static_cast<std::uint64_t>(info.st_size);
}

std::string readUpTo(const std::string& path, std::size_t maxBytes)
{
    File file = openRegularFile(path);
    std::string bytes;
    struct stat info {};  // the size of the file opened, not of whatever the path names now
    if (::fstat(::fileno(file.get()), &info) == 0)
        bytes.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(info.st_size), maxBytes)));
    char buffer[1 << 16];
    while (bytes.size() < maxBytes) {
        const std::size_t want = std::min(sizeof buffer, maxBytes - bytes.size());
        const std::size_t got = std::fread(buffer, 1, want, file.get());
        bytes.append(buffer, got);
        if (got < want) {
            if (std::ferror(file.get()))
                throw DataError(path, 0, 0, std::string("read failed: ") + std::strerror(errno));
            break;
        }
    }
    return bytes;
}

}  // namespace

File openRegularFile(const std::string& path)
{
    statRegular(path);  // the clear message for the common case, before open() can block
    // O_NONBLOCK and the fstat below close the window in which the path could be swapped
    // for a FIFO after the stat: opening a FIFO non-blocking returns at once. On a
    // regular file O_NONBLOCK has no effect on reads.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw DataError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat info {};
    const bool statted = ::fstat(fd, &info) == 0;
    const int error = errno;
    if (!statted || !S_ISREG(info.st_mode)) {
        ::close(fd);
        if (!statted) throw DataError(path, 0, 0, std::string("cannot open: ") + std::strerror(error));
        requireRegular(path, info);
    }
    File file(::fdopen(fd, "rb"));
    if (!file) {
        ::close(fd);
        throw DataError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    return file;
}

std::uint64_t fileSize(const std::string& path)
{
    return statRegular(path);
}

std::string readFileBytes(const std::string& path)
{
    return readUpTo(path, static_cast<std::size_t>(-1));
}

std::string readFilePrefix(const std::string& path, std::size_t maxBytes)
{
    return readUpTo(path, maxBytes);
}

std::string readFirstLine(const std::string& path)
{
    constexpr std::size_t kLongestLine = 64 * 1024;  // keys and tokens are far shorter
    std::string line = readUpTo(path, kLongestLine);
    line.erase(std::min(line.find('\n'), line.size()));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

}  // namespace clusterdesk
