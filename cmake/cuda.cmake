# cuda.cmake - the workloads' CUDA builds (UVMEMU_CUDA): each workload whose
# kernels compile both ways gets build/bin/cuda/NAME, the same source built by
# nvcc for a real GPU (emu-gpu/include/emugpu_cuda.h), with the host's C
# linked to the CUDA runtime (libuvmemu_cudart). Sets UVMEMU_CUDA_ENABLED, and
# UVMEMU_CUDA_SKIPPED to the reason when it is off.
#
# Hopper (sm_90: H100, H200) machine code plus its PTX, which later GPUs
# compile when they load it. The runtime is linked statically and CUPTI is
# loaded at run time, so the binaries need only the driver.

include(CheckLanguage)
check_language(CUDA)
set(_uvm_cuda_default OFF)
if(CMAKE_CUDA_COMPILER)
  set(_uvm_cuda_default ON)
endif()
option(UVMEMU_CUDA "Build the dual-source workloads for a real GPU too (build/bin/cuda; needs nvcc)"
  ${_uvm_cuda_default})

set(UVMEMU_CUDA_ENABLED OFF)
set(UVMEMU_CUDA_SKIPPED "")
if(NOT CMAKE_CUDA_COMPILER)
  set(UVMEMU_CUDA_SKIPPED "no nvcc found (put the CUDA toolkit's bin on PATH, or set CUDACXX)")
elseif(NOT UVMEMU_CUDA)
  set(UVMEMU_CUDA_SKIPPED "UVMEMU_CUDA is OFF")
elseif(UVMEMU_SANITIZE)
  set(UVMEMU_CUDA_SKIPPED "a sanitizer build (UVMEMU_SANITIZE=${UVMEMU_SANITIZE}) instruments the host's C, which nvcc's link does not carry")
else()
  set(UVMEMU_CUDA_ENABLED ON)
endif()

if(UVMEMU_CUDA_ENABLED)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90-real 90-virtual)
  endif()
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  # Exact results: no fused multiply-add where the CPU's C rounds twice,
  # IEEE division and square root (nvcc's defaults, said for the reader).
  set(UVMEMU_CUDA_FLAGS --fmad=false --prec-div=true --prec-sqrt=true
    -Xcompiler=-Wall,-Wextra,-Wno-unused-parameter)
  if(UVMEMU_WERROR)
    list(APPEND UVMEMU_CUDA_FLAGS -Werror=all-warnings -Xcompiler=-Werror)
  endif()

  # What the host's C of a CUDA build compiles and links against: the CUDA
  # runtime's headers in place of uvmemu_cuda.h's own declarations.
  add_library(uvmemu_real_cuda INTERFACE)
  target_compile_definitions(uvmemu_real_cuda INTERFACE UVMEMU_REAL_CUDA)
  target_include_directories(uvmemu_real_cuda SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})
  target_link_libraries(uvmemu_real_cuda INTERFACE CUDA::cudart_static)
  message(STATUS "CUDA builds: on (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
else()
  message(STATUS "CUDA builds: skipped: ${UVMEMU_CUDA_SKIPPED}")
endif()

# uvmemu_cuda_executable(TARGET NAME SOURCES... KERNELS FILES... [LIBS ...]):
# build/bin/cuda/NAME from the host's C sources and the kernel files, which
# nvcc compiles as CUDA. nvcc reads a file's language from its name, so each
# kernel file is included by a .cu of the build tree and keeps one name.
function(uvmemu_cuda_executable target name)
  cmake_parse_arguments(C "" "" "KERNELS;LIBS" ${ARGN})
  set(_cu)
  foreach(k ${C_KERNELS})
    get_filename_component(_abs ${k} ABSOLUTE)
    get_filename_component(_base ${k} NAME_WE)
    set(_out ${CMAKE_CURRENT_BINARY_DIR}/${target}/${_base}.cu)
    file(GENERATE OUTPUT ${_out}
      CONTENT "// Generated: ${k} compiled as CUDA (cmake/cuda.cmake).\n#include \"${_abs}\"\n")
    list(APPEND _cu ${_out})
  endforeach()
  add_executable(${target} ${C_UNPARSED_ARGUMENTS} ${_cu})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE ${C_LIBS} emugpu_cuda uvmemu_cudart m)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${UVMEMU_CUDA_FLAGS}>)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name}
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin/cuda)
endfunction()
