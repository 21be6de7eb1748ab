#include "file_bytes.h"

#include "engine/core/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>

namespace clusterdesk::data {
namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File openForReading(const std::string& path)
{
    fileSize(path);  // rejects directories and missing files with a clear message
    File file(std::fopen(path.c_str(), "rb"));
    if (!file) throw DataError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
    return file;
}

std::string readUpTo(const std::string& path, std::size_t maxBytes)
{
    File file = openForReading(path);
    std::string bytes;
    const std::uint64_t size = fileSize(path);
    bytes.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(size, maxBytes)));
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

std::uint64_t fileSize(const std::string& path)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw DataError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) throw DataError(path, 0, 0, "cannot open: is a directory");
    return static_cast<std::uint64_t>(info.st_size);
}

std::string readFileBytes(const std::string& path)
{
    return readUpTo(path, static_cast<std::size_t>(-1));
}

std::string readFilePrefix(const std::string& path, std::size_t maxBytes)
{
    return readUpTo(path, maxBytes);
}

}  // namespace clusterdesk::data
