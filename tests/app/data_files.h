// Small data files of every kind a quant loads, generated in the test (nothing
// committed): a delimited matrix, a wide prices table, long ticks, a NumPy .npy, an
// HDF5 dataset (when the build has HDF5). The
// numbers come from a fixed seed, with cluster (sector) structure, so every run of a
// test sees the same bytes.
#pragma once

#ifdef CLUSTERDESK_HAVE_HDF5
#include <hdf5.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace clusterdesk::test {

// rows x cols values around `groups` centres, row-major.
inline std::vector<float> groupedValues(int rows, int cols, int groups, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> centres(static_cast<std::size_t>(groups * cols));
    for (float& c : centres) c = 6.0f * noise(rng);
    std::vector<float> values(static_cast<std::size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) values[static_cast<std::size_t>(r) * cols + c] = centres[static_cast<std::size_t>((r % groups) * cols + c)] + noise(rng);
    return values;
}

inline void writeMatrixCsv(const std::string& path, int rows, int cols, int groups, unsigned seed)
{
    const std::vector<float> values = groupedValues(rows, cols, groups, seed);
    std::ofstream out(path);
    for (int c = 0; c < cols; ++c) out << (c ? "," : "") << "x" << c;
    out << '\n';
    char cell[32];
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            std::snprintf(cell, sizeof cell, "%.6g", values[static_cast<std::size_t>(r) * cols + c]);
            out << (c ? "," : "") << cell;
        }
        out << '\n';
    }
}

// float32, C order, version 1.0, as numpy.save writes it.
inline void writeNpy(const std::string& path, int rows, int cols, int groups, unsigned seed)
{
    const std::vector<float> values = groupedValues(rows, cols, groups, seed);
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " + std::to_string(cols) + "), }";
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const auto length = static_cast<std::uint16_t>(header.size());
    out.put(static_cast<char>(length & 0xff)).put(static_cast<char>(length >> 8));
    out << header;
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
}

// Daily log returns of `assets` assets in `sectors` sectors: a sector factor plus noise.
inline std::vector<std::vector<double>> sectorReturns(int assets, int sectors, int periods, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<std::vector<double>> returns(static_cast<std::size_t>(assets), std::vector<double>(static_cast<std::size_t>(periods)));
    for (int t = 0; t < periods; ++t) {
        std::vector<double> factor(static_cast<std::size_t>(sectors));
        for (double& f : factor) f = 0.01 * noise(rng);
        for (int a = 0; a < assets; ++a) returns[static_cast<std::size_t>(a)][static_cast<std::size_t>(t)] = factor[static_cast<std::size_t>(a % sectors)] + 0.006 * noise(rng);
    }
    return returns;
}

// date,A00,A01,... one row per day.
inline void writePricesCsv(const std::string& path, int assets, int sectors, int days, unsigned seed)
{
    const auto returns = sectorReturns(assets, sectors, days, seed);
    std::ofstream out(path);
    out << "date";
    for (int a = 0; a < assets; ++a) out << ",A" << (a < 10 ? "0" : "") << a;
    out << '\n';
    std::vector<double> price(static_cast<std::size_t>(assets), 100.0);
    char cell[32];
    for (int d = 0; d < days; ++d) {
        // Consecutive calendar days from 2020-01-01 (the loader needs increasing dates).
        const int year = 2020 + d / 336, month = 1 + (d % 336) / 28, day = 1 + d % 28;
        std::snprintf(cell, sizeof cell, "%04d-%02d-%02d", year, month, day);
        out << cell;
        for (int a = 0; a < assets; ++a) {
            price[static_cast<std::size_t>(a)] *= std::exp(returns[static_cast<std::size_t>(a)][static_cast<std::size_t>(d)]);
            std::snprintf(cell, sizeof cell, "%.6f", price[static_cast<std::size_t>(a)]);
            out << ',' << cell;
        }
        out << '\n';
    }
}

// timestamp,symbol,price,size: every symbol trades every 20 s for `minutes` minutes.
inline void writeTicksCsv(const std::string& path, int symbols, int sectors, int minutes, unsigned seed)
{
    const int ticks = minutes * 3;
    const auto returns = sectorReturns(symbols, sectors, ticks, seed);
    std::ofstream out(path);
    out << "timestamp,symbol,price,size\n";
    std::vector<double> price(static_cast<std::size_t>(symbols), 50.0);
    char line[96];
    for (int t = 0; t < ticks; ++t) {
        const int seconds = t * 20;
        for (int s = 0; s < symbols; ++s) {
            price[static_cast<std::size_t>(s)] *= std::exp(0.3 * returns[static_cast<std::size_t>(s)][static_cast<std::size_t>(t)]);
            std::snprintf(line, sizeof line, "2024-01-02T%02d:%02d:%02d,S%02d,%.5f,%d\n", 9 + seconds / 3600, (seconds / 60) % 60,
                          seconds % 60, s, price[static_cast<std::size_t>(s)], 100 + s);
            out << line;
        }
    }
}

#ifdef CLUSTERDESK_HAVE_HDF5
// One float32 dataset `name` (rows x cols) in a new HDF5 file, as h5py writes it.
inline bool writeHdf5(const std::string& path, const std::string& name, int rows, int cols, int groups, unsigned seed)
{
    const std::vector<float> values = groupedValues(rows, cols, groups, seed);
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0) return false;
    const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols)};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t set = H5Dcreate2(file, name.c_str(), H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const bool written = set >= 0 && H5Dwrite(set, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0;
    if (set >= 0) H5Dclose(set);
    H5Sclose(space);
    return H5Fclose(file) >= 0 && written;
}
#endif

}  // namespace clusterdesk::test
