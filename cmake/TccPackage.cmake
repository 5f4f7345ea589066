# The `tcc` CMake package: find_package(tcc) gives
#   tcc::tcc  the eager API (component eager: frontend/, compat/), no MLIR;
#   tcc::jit  trace, reference interpreter, in-process compile (component
#             jit: bridge/), which finds MLIR/LLVM 19 and the runtime
#             package as its dependencies.
# The package spans several layers, so it is written here, once, after every
# layer has added its targets to the export sets (tccTargets, tccJitTargets).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(_tcc_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tcc)

install(EXPORT tccTargets NAMESPACE tcc:: COMPONENT eager
  DESTINATION ${_tcc_package_dir})
if(TARGET tcc_jit)
  install(EXPORT tccJitTargets NAMESPACE tcc:: COMPONENT jit
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
