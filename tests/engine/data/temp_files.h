// Files for the doctest suites of engine/data: a temporary directory removed at the end
// of the test, and writing bytes into it. No Qt, so these suites run where only a
// compiler is installed.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace clusterdesk::test {

class TempDir {
public:
    TempDir()
    {
        std::random_device random;
        m_path = std::filesystem::temp_directory_path() / ("clusterdesk-test-" + std::to_string(random()));
        std::filesystem::create_directories(m_path);
    }
    ~TempDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string path(const std::string& name) const { return (m_path / name).string(); }

    // Writes bytes (exactly, binary) to the file `name` and returns its path.
    std::string write(const std::string& name, const std::string& bytes) const
    {
        const std::string file = path(name);
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return file;
    }

private:
    std::filesystem::path m_path;
};

}  // namespace clusterdesk::test
