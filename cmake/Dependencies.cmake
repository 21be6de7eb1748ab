# Every dependency comes from Debian's packages or the CUDA toolkit; see
# scripts/install-deps.sh. The engine needs OpenMP, Thrust (CCCL), OpenSSL and
# nlohmann-json; OpenBLAS is optional (a plain loop stands in) so that the
# Qt-free build configures on machines with only a compiler, CMake and CUDA.

find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(nlohmann_json 3.10 REQUIRED)

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
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets PrintSupport WebSockets Test)
  find_package(QCustomPlotQt6 REQUIRED)
  find_package(SQLite3 REQUIRED)
endif()
