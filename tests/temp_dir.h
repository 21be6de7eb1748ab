// A temporary directory for one test, removed with everything in it when the test
// ends: what QTemporaryDir gave the Qt Test suites, for the Qt-free ones.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace clusterdesk::test {

class TempDir {
public:
    TempDir()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "clusterdesk-test-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory from " + pattern);
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ignored;  // a test that failed half-way may leave read-only files; never throw here
        std::filesystem::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    bool isValid() const { return std::filesystem::is_directory(m_path); }
    std::string path() const { return m_path; }
    std::string filePath(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

}  // namespace clusterdesk::test
