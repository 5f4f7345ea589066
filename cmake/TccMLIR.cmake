# Finds LLVM/MLIR 19 and loads the TableGen helpers without HandleLLVMOptions,
# which would force -fno-exceptions on the whole project. Only the shared
# `MLIR` and `LLVM` targets are ever linked (see docs/architecture.md).

if(NOT MLIR_DIR)
  find_program(TCC_LLVM_CONFIG NAMES llvm-config-19 llvm-config REQUIRED)
  execute_process(COMMAND ${TCC_LLVM_CONFIG} --cmakedir
                  OUTPUT_VARIABLE _llvm_cmakedir OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(_mlir_dir "${_llvm_cmakedir}/../mlir" ABSOLUTE)
  set(MLIR_DIR "${_mlir_dir}" CACHE PATH "MLIR CMake package")
endif()

find_package(MLIR REQUIRED CONFIG)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "tcc needs LLVM/MLIR 19, found ${LLVM_PACKAGE_VERSION} in ${MLIR_DIR}")
endif()
message(STATUS "Using MLIR ${LLVM_PACKAGE_VERSION} from ${MLIR_DIR}")

list(APPEND CMAKE_MODULE_PATH ${MLIR_CMAKE_DIR} ${LLVM_CMAKE_DIR})
include(TableGen)
include(AddLLVM)
include(AddMLIR)

# Targets that AddMLIR's helpers attach to.
if(NOT TARGET mlir-headers)
  add_custom_target(mlir-headers)
endif()
if(NOT TARGET mlir-doc)
  add_custom_target(mlir-doc)
endif()
set(MLIR_BINARY_DIR ${PROJECT_BINARY_DIR})

find_program(TCC_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(TCC_LIT NAMES lit.py llvm-lit lit
             HINTS ${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit ${LLVM_TOOLS_BINARY_DIR})

# tcc_mlir_library(name SOURCES... [DEPENDS gen...] [LINK_LIBS ...])
# A plain library against the shared libMLIR/libLLVM.
function(tcc_mlir_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_include_directories(${name} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  target_compile_definitions(${name} PUBLIC ${LLVM_DEFINITIONS})
  target_link_libraries(${name} PUBLIC MLIR LLVM ${ARG_LINK_LIBS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
endfunction()
