# Every dependency comes from Debian's packages or the CUDA toolkit; see
# scripts/install-deps.sh. The kernels and clusterdesk-worker need only OpenMP and
# Thrust (CCCL, shipped with CUDA); OpenBLAS is optional (a plain loop stands in).
# The engine and CLI also need OpenSSL (dataset hashes) and nlohmann-json; where
# those are missing (a GPU machine with only a compiler, CMake and CUDA) a Qt-free
# build still configures and builds the kernels, the CUDA plug-in and the worker.

find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)
find_package(OpenSSL QUIET COMPONENTS Crypto)
find_package(nlohmann_json 3.10 QUIET)
set(CLUSTERDESK_ENGINE_ENABLED ON)
if(NOT OpenSSL_FOUND OR NOT nlohmann_json_FOUND)
  if(CLUSTERDESK_WITH_QT)
    message(FATAL_ERROR "OpenSSL and nlohmann-json are needed (scripts/install-deps.sh installs them)")
  endif()
  set(CLUSTERDESK_ENGINE_ENABLED OFF)
  message(WARNING "OpenSSL or nlohmann-json not found: building only the kernels and clusterdesk-worker")
endif()

# The run store (engine/store) needs SQLite's C library and zlib; without them the
# engine builds without the store, and clusterdesk-cli (which records every run) is not built.
find_package(SQLite3 QUIET)
find_package(ZLIB QUIET)
set(CLUSTERDESK_STORE_ENABLED OFF)
if(CLUSTERDESK_ENGINE_ENABLED AND SQLite3_FOUND AND ZLIB_FOUND)
  set(CLUSTERDESK_STORE_ENABLED ON)
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
find_package(Thrust REQUIRED CONFIG)
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
  find_package(QCustomPlotQt6 REQUIRED)
  find_package(SQLite3 REQUIRED)
endif()

# MPI (Debian's OpenMPI) for pool runs: the MPI communicator and clusterdesk-worker
# --rank. Optional: without it (or without the engine) everything else still builds.
set(CLUSTERDESK_MPI_ENABLED OFF)
if(CLUSTERDESK_WITH_MPI AND CLUSTERDESK_ENGINE_ENABLED)
  find_package(MPI QUIET COMPONENTS C)
  if(MPI_C_FOUND)
    set(CLUSTERDESK_MPI_ENABLED ON)
  endif()
endif()
