# The `tcc` CMake package: find_package(tcc) gives
#   tcc::tcc  the eager API (component eager: frontend/, compat/), no MLIR;
#   tcc::jit  trace, reference interpreter, in-process compile (component
#             jit: bridge/), which finds MLIR/LLVM 19 and the runtime
#             package as its dependencies;
#   tcc::onnx ONNX import (component jit: onnx/), which also finds
#             protobuf;
#   tcc::quant post-training int8 calibration (component jit: quant/);
#   tcc::distributed  process groups and DistributedDataParallel
#             (component distributed: distributed/), built where MPI is
#             found, which finds MPI.
# The package spans several layers, so it is written here, once, after every
# layer has added its targets to the export sets (tccTargets, tccJitTargets).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(_tcc_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tcc)

# tcc_link_closure(<out> <target>...): the targets given and every
# non-imported library target they link, directly or not, whatever the
# visibility. Build-tree-only items ($<BUILD_INTERFACE:...>) are never
# exported, so they are left out.
function(tcc_link_closure out)
  set(seen "")
  set(queue ${ARGN})
  while(queue)
    list(POP_FRONT queue t)
    if(NOT TARGET ${t})
      continue() # a plain library name, a flag, a directory marker
    endif()
    get_target_property(aliased ${t} ALIASED_TARGET)
    if(aliased)
      set(t ${aliased})
    endif()
    get_target_property(imported ${t} IMPORTED)
    if(imported OR t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(type ${t} TYPE)
    set(props INTERFACE_LINK_LIBRARIES)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND props LINK_LIBRARIES)
    endif()
    foreach(prop ${props})
      get_target_property(libs ${t} ${prop})
      foreach(lib IN LISTS libs)
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" lib "${lib}")
        if(lib AND NOT lib MATCHES "^\\$<")
          list(APPEND queue ${lib})
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

install(EXPORT tccTargets NAMESPACE tcc:: COMPONENT eager
  DESTINATION ${_tcc_package_dir})

# The jit component: tcc_jit, tcc_interpreter, tcc_onnx, tcc_quant and every
# library they link that the eager and runtime packages do not already ship
# (the compiler's static libraries TCCIR, TCCPasses, TCCCodegen, ...,
# whatever codegen adds), link-only: their headers stay out of the install.
if(TARGET tcc_jit)
  tcc_link_closure(_tcc_jit_libs tcc_jit tcc_interpreter tcc_onnx tcc_quant)
  tcc_link_closure(_tcc_shipped tcc_eager tcc_runtime_static)
  list(REMOVE_ITEM _tcc_jit_libs ${_tcc_shipped})
  install(TARGETS ${_tcc_jit_libs} EXPORT tccJitTargets COMPONENT jit
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/tcc-objects)
  install(EXPORT tccJitTargets NAMESPACE tcc:: COMPONENT jit
    DESTINATION ${_tcc_package_dir})
endif()

# The distributed component: tcc_distributed (links tcc::tcc and MPI).
if(TARGET tcc_distributed)
  install(EXPORT tccDistributedTargets NAMESPACE tcc:: COMPONENT distributed
    DESTINATION ${_tcc_package_dir})
endif()

# tccConfig.cmake looks for MLIR where this build found it (under the LLVM
# 19 CMake dir).
set(TCC_PACKAGE_MLIR_DIR ${MLIR_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tccConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/tccConfig.cmake
  INSTALL_DESTINATION ${_tcc_package_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/tccConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/tccConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/tccConfigVersion.cmake
  COMPONENT eager DESTINATION ${_tcc_package_dir})
