# Every dependency comes from Debian's packages or the CUDA toolkit; see
# scripts/install-deps.sh. A GPU machine has only a compiler, CMake and CUDA, so a
# Qt-free build needs none of Debian's -dev packages:
# - the header-only nlohmann-json and doctest come from the system or from
#   CLUSTERDESK_CARRIED_HEADERS (a folder scripts/carry-headers.sh fills from here);
# - SHA-256 uses OpenSSL when found, a plain implementation otherwise;
# - the run store (SQLite, zlib, OpenSSL's HMAC for its chain) is built only when all
#   three are found; clusterdesk-cli and the GUI record every run, so they need it;
# - OpenBLAS is optional (a plain loop stands in for the host GEMM).

find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)

set(CLUSTERDESK_CARRIED_HEADERS "" CACHE PATH
    "Folder with nlohmann/json.hpp and doctest/doctest.h, used where the system has none (scripts/carry-headers.sh)")
# clusterdesk_header_only(TARGET HEADER): an imported target for a header found in the
# carried folder; fails naming what is missing and how to get it.
function(clusterdesk_header_only target header)
  if(NOT CLUSTERDESK_CARRIED_HEADERS OR NOT EXISTS "${CLUSTERDESK_CARRIED_HEADERS}/${header}")
    message(FATAL_ERROR "${header} not found: install it (scripts/install-deps.sh) or point "
                        "CLUSTERDESK_CARRIED_HEADERS at a folder holding it (scripts/carry-headers.sh); "
                        "CLUSTERDESK_CARRIED_HEADERS='${CLUSTERDESK_CARRIED_HEADERS}'")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} SYSTEM INTERFACE "${CLUSTERDESK_CARRIED_HEADERS}")
endfunction()

find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  clusterdesk_header_only(nlohmann_json::nlohmann_json nlohmann/json.hpp)
endif()
find_package(doctest QUIET)
if(NOT doctest_FOUND)
  clusterdesk_header_only(doctest::doctest doctest/doctest.h)
endif()

find_package(OpenSSL QUIET COMPONENTS Crypto)
find_package(SQLite3 QUIET)
find_package(ZLIB QUIET)
set(CLUSTERDESK_STORE_ENABLED OFF)
if(OpenSSL_FOUND AND SQLite3_FOUND AND ZLIB_FOUND)
  set(CLUSTERDESK_STORE_ENABLED ON)
elseif(CLUSTERDESK_WITH_QT)
  message(FATAL_ERROR "The GUI records runs in the run store, which needs OpenSSL, SQLite3 and zlib "
                      "(scripts/install-deps.sh installs them; found: OpenSSL=${OpenSSL_FOUND} "
                      "SQLite3=${SQLite3_FOUND} zlib=${ZLIB_FOUND})")
else()
  message(WARNING "Run store off (needs OpenSSL, SQLite3 and zlib; found: OpenSSL=${OpenSSL_FOUND} "
                  "SQLite3=${SQLite3_FOUND} zlib=${ZLIB_FOUND}): clusterdesk-cli and test_run_store are not built")
endif()

# HDF5's C library for the hdf5 data source (engine/data/hdf5_source.cpp); optional:
# without it that source is not built and .h5 files are not offered.
find_package(HDF5 QUIET COMPONENTS C)
set(CLUSTERDESK_HDF5_ENABLED OFF)
if(HDF5_FOUND)
  set(CLUSTERDESK_HDF5_ENABLED ON)
endif()

find_package(OpenBLAS CONFIG QUIET)
if(OpenBLAS_FOUND)
  add_library(clusterdesk_blas INTERFACE)
  target_include_directories(clusterdesk_blas INTERFACE ${OpenBLAS_INCLUDE_DIRS})
  target_link_libraries(clusterdesk_blas INTERFACE ${OpenBLAS_LIBRARIES})
  target_compile_definitions(clusterdesk_blas INTERFACE CLUSTERDESK_HAVE_OPENBLAS)
endif()

# Thrust from the CUDA toolkit's CCCL: the host backend compiles it with the
# OpenMP device system, the CUDA backend with the CUDA one.
# HINTS: where a CUDA image keeps the package when CMake's search misses it (the lent
# H200's toolkit has it only under targets/x86_64-linux/lib/cmake).
find_package(Thrust REQUIRED CONFIG HINTS /usr/local/cuda /usr/local/cuda/targets/x86_64-linux)
thrust_create_target(clusterdesk_thrust_omp HOST CPP DEVICE OMP)

set(CLUSTERDESK_CUDA_ENABLED OFF)
if(CLUSTERDESK_WITH_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Hopper (sm_90) machine code plus PTX for anything newer.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90-real 90-virtual)
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(CLUSTERDESK_CUDA_ENABLED ON)
  endif()
endif()

if(CLUSTERDESK_WITH_QT)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets PrintSupport Test)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Svg)  # plots export SVG (ui/plots)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Concurrent)  # the Members table sorts off the UI thread
  find_package(Qt6 6.4 REQUIRED COMPONENTS Network WebSockets)  # live feeds: clusterdesk-feed and its clients
  find_package(QCustomPlotQt6 REQUIRED)
endif()

# MPI (Debian's OpenMPI) for pool runs: the MPI communicator and clusterdesk-worker
# --rank. Optional: without it everything else still builds.
set(CLUSTERDESK_MPI_ENABLED OFF)
if(CLUSTERDESK_WITH_MPI)
  find_package(MPI QUIET COMPONENTS C)
  if(MPI_C_FOUND)
    set(CLUSTERDESK_MPI_ENABLED ON)
  endif()
endif()
