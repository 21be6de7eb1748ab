// Output files: an output never replaces a protected file (by any name), is never
// written to something that is not a regular file, and a failed write leaves the old
// content and no temporary file behind.
#include "engine/core/error.h"
#include "engine/core/output_file.h"

#include "doctest_support.h"
#include "temp_dir.h"

#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace clusterdesk;

namespace {

std::string contentOf(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) return "<unreadable>";
    return std::string(std::istreambuf_iterator<char>(file), {});
}

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    REQUIRE(file.good());
}

// Everything in `dir` but the files named: what a write left behind.
std::vector<std::string> leftovers(const test::TempDir& dir, const std::vector<std::string>& expected)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory() && std::find(expected.begin(), expected.end(), name) == expected.end()) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

template <typename E, typename F>
std::string messageOf(F&& body)
{
    try {
        body();
    } catch (const E& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("replacesAtomicallyAndKeepsPermissions")
{
    test::TempDir dir;
    const std::string path = dir.filePath("labels.txt");
    writeText(path, "old\n");
    REQUIRE(::chmod(path.c_str(), 0640) == 0);
    writeFileReplacing(path, "new\n");
    REQUIRE_EQ(contentOf(path), std::string("new\n"));
    struct stat st {};
    REQUIRE_EQ(::stat(path.c_str(), &st), 0);
    REQUIRE_EQ(st.st_mode & 0777, mode_t(0640));
    REQUIRE_EQ(leftovers(dir, {"labels.txt"}), std::vector<std::string>());
}

TEST_CASE("writesThroughASymbolicLink")
{
    test::TempDir dir;
    writeText(dir.filePath("real.txt"), "old\n");
    std::filesystem::create_symlink(dir.filePath("real.txt"), dir.filePath("link.txt"));
    writeFileReplacing(dir.filePath("link.txt"), "new\n");
    REQUIRE(std::filesystem::is_symlink(dir.filePath("link.txt")));
    REQUIRE_EQ(contentOf(dir.filePath("real.txt")), std::string("new\n"));
}

TEST_CASE("aFailedWriteKeepsTheOldContent")
{
    // A file-size limit makes write(2) fail with EFBIG, as a full disk fails with
    // ENOSPC: the old file stays whole and no temporary file is left.
    test::TempDir dir;
    const std::string path = dir.filePath("out.json");
    writeText(path, "precious\n");
    struct rlimit old {};
    REQUIRE_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 4096;
    REQUIRE_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::string message = messageOf<OutputError>([&] { writeFileReplacing(path, std::string(100000, 'x')); });
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    REQUIRE_MESSAGE((test::startsWith(message, "cannot write " + path) && test::contains(message, "write failed")), std::string(message).c_str());
    REQUIRE_EQ(contentOf(path), std::string("precious\n"));
    REQUIRE_EQ(leftovers(dir, {"out.json"}), std::vector<std::string>());
}

TEST_CASE("refusesProtectedFilesByAnyName")
{
    test::TempDir dir;
    const std::string data = dir.filePath("data.csv");
    writeText(data, "1,2\n");
    std::filesystem::create_symlink(data, dir.filePath("alias.csv"));
    REQUIRE(::link(data.c_str(), dir.filePath("hard.csv").c_str()) == 0);
    REQUIRE(std::filesystem::create_directory(dir.filePath("sub")));
    const std::vector<ProtectedFile> keep = {{data, "the input data (--data)"}};
    for (const std::string& name : {data, dir.filePath("alias.csv"), dir.filePath("hard.csv"), dir.filePath("sub/../data.csv")}) {
        const std::string message = messageOf<UsageError>([&] { checkOutputPath("--labels-out", name, keep); });
        REQUIRE_MESSAGE(test::contains(message, "would overwrite the input data (--data)"), std::string(name + ": " + message).c_str());
    }
    REQUIRE_EQ(contentOf(data), std::string("1,2\n"));
    checkOutputPath("--labels-out", dir.filePath("labels.txt"), keep);  // a new file is fine
    REQUIRE_EQ(leftovers(dir, {"data.csv", "alias.csv", "hard.csv"}), std::vector<std::string>());
}

TEST_CASE("refusesWhatIsNotARegularFile")
{
    test::TempDir dir;
    REQUIRE(::mkfifo(dir.filePath("fifo").c_str(), 0600) == 0);
    const struct {
        std::string path;
        const char* says;
    } cases[] = {{"/dev/full", "a character device"}, {dir.filePath("fifo"), "a FIFO"}, {dir.path(), "a directory"},
                 {"/proc/version", "/proc"}, {dir.filePath("missing/out.txt"), "does not exist"}};
    for (const auto& c : cases) {
        const std::string message = messageOf<UsageError>([&] { checkOutputPath("--labels-out", c.path, {}); });
        REQUIRE_MESSAGE((test::startsWith(message, "--labels-out " + c.path) && test::contains(message, c.says)), std::string(c.path + ": " + message).c_str());
    }
}

TEST_CASE("aReadOnlyFileIsNotReplaced")
{
    // Renaming a new file over a read-only one would get round its permission (the
    // folder's is what rename needs): refused before the run and at the write.
    test::TempDir dir;
    const std::string path = dir.filePath("kept.csv");
    writeText(path, "keep\n");
    REQUIRE(::chmod(path.c_str(), 0444) == 0);
    const std::string before = messageOf<UsageError>([&] { checkOutputPath("--labels-out", path, {}); });
    REQUIRE_MESSAGE(test::contains(before, "--labels-out " + path + ": the file is read-only (mode 0444)"), before.c_str());
    const std::string at = messageOf<OutputError>([&] { writeFileReplacing(path, "new\n"); });
    REQUIRE_MESSAGE(test::contains(at, "cannot write " + path + ": the file is read-only"), at.c_str());
    REQUIRE_EQ(contentOf(path), std::string("keep\n"));
    REQUIRE_EQ(leftovers(dir, {"kept.csv"}), std::vector<std::string>());
    // Writable again, it is replaced as any output.
    REQUIRE(::chmod(path.c_str(), 0644) == 0);
    checkOutputPath("--labels-out", path, {});
    writeFileReplacing(path, "new\n");
    REQUIRE_EQ(contentOf(path), std::string("new\n"));
}
