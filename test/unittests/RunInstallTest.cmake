# Installs components of the build into a fresh prefix, then configures,
# builds and runs a consumer project against it with find_package only.
# -DBUILD_DIR=<tcc build> -DSOURCE=<consumer folder> -DWORK=<scratch folder>
# [-DCOMPONENTS=<comma-separated list, default eager>]
# [-DLAUNCHER=<comma-separated command the consumer runs under, e.g. mpirun>]
if(NOT COMPONENTS)
  set(COMPONENTS eager)
endif()
string(REPLACE "," ";" COMPONENTS "${COMPONENTS}")
include(${CMAKE_CURRENT_LIST_DIR}/ConsumerProject.cmake)
file(REMOVE_RECURSE ${WORK})
tcc_install_components(${BUILD_DIR} ${WORK}/prefix ${COMPONENTS})
tcc_build_consumer(${SOURCE} ${WORK}/build ${WORK}/prefix "the consumer")
string(REPLACE "," ";" LAUNCHER "${LAUNCHER}")
execute_process(COMMAND ${LAUNCHER} ${WORK}/build/consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer ran and failed its check")
endif()
