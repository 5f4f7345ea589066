# Installs components of the build into a fresh prefix, then configures,
# builds and runs a consumer project against it with find_package only.
# -DBUILD_DIR=<tcc build> -DSOURCE=<consumer folder> -DWORK=<scratch folder>
# [-DCOMPONENTS=<comma-separated list, default eager>]
if(NOT COMPONENTS)
  set(COMPONENTS eager)
endif()
string(REPLACE "," ";" COMPONENTS "${COMPONENTS}")
file(REMOVE_RECURSE ${WORK})
foreach(component ${COMPONENTS})
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR}
                          --prefix ${WORK}/prefix --component ${component}
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "cmake --install (component ${component}) failed")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G Ninja
                        -DCMAKE_PREFIX_PATH=${WORK}/prefix
                        -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer against the install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed")
endif()
execute_process(COMMAND ${WORK}/build/consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer ran and failed its check")
endif()
