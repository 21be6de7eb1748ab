#include "file_head.h"

#include "engine/core/error.h"
#include "engine/core/file_bytes.h"

#include <filesystem>

namespace clusterdesk::data {
namespace {

constexpr std::size_t kPrefix = (1u << 20) + 4096;  // a maximal CSV line and then some

}  // namespace

FileHead::FileHead(std::string path)
    : m_path(std::move(path))
    , m_bytes(readFilePrefix(m_path, kPrefix))
{
}

std::string FileHead::extension() const
{
    std::string ext = std::filesystem::path(m_path).extension().string();
    if (!ext.empty()) ext.erase(0, 1);
    for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return ext;
}

void FileHead::parse() const
{
    if (m_reader) return;
    std::string text = m_bytes;
    if (text.empty()) throw DataError(m_path, 1, 1, "empty file");
    if (text.size() == kPrefix) {
        // Cut at the last complete line so a split character or record is not mistaken for bad input.
        const std::size_t nl = text.rfind('\n');
        if (nl != std::string::npos) {
            text.resize(nl + 1);
        } else {
            // One giant line: drop a possibly split trailing character so the reader
            // reports the line length, not a false UTF-8 error.
            for (int i = 0; i < 3 && !text.empty() && static_cast<unsigned char>(text.back()) >= 0x80; ++i)
                text.pop_back();
        }
    }
    // Built in place: the records point into the reader's text, which a move of a short
    // string would not keep where it is.
    m_reader.emplace(m_path, std::move(text));
    try {
        if (!m_reader->next(m_first)) throw DataError(m_path, m_reader->line(), 1, "empty file: only blank lines");
        m_hasSecond = m_reader->next(m_second);
    } catch (...) {
        m_reader.reset();
        throw;
    }
}

const CsvRecord& FileHead::firstRecord() const
{
    parse();
    return m_first;
}

const CsvRecord* FileHead::secondRecord() const
{
    parse();
    return m_hasSecond ? &m_second : nullptr;
}

}  // namespace clusterdesk::data
