# Steps the install tests share (cmake -P scripts): install components of a
# tcc build into a fresh prefix, then configure and build a consumer project
# against that prefix with find_package only. Each step stops the script
# with a message saying which step failed.

# tcc_install_components(BUILD_DIR PREFIX COMPONENT...)
function(tcc_install_components build_dir prefix)
  foreach(component ${ARGN})
    execute_process(COMMAND ${CMAKE_COMMAND} --install ${build_dir}
                            --prefix ${prefix} --component ${component}
                    RESULT_VARIABLE rc)
    if(rc)
      message(FATAL_ERROR "cmake --install (component ${component}) failed")
    endif()
  endforeach()
endfunction()

# tcc_build_consumer(SOURCE BINARY_DIR PREFIX WHAT): configures (Ninja,
# Release, CMAKE_PREFIX_PATH=PREFIX) and builds; WHAT names the consumer in
# messages.
function(tcc_build_consumer source binary_dir prefix what)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${binary_dir} -G Ninja
                          -DCMAKE_PREFIX_PATH=${prefix}
                          -DCMAKE_BUILD_TYPE=Release
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "configuring ${what} against the install failed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${binary_dir}
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "building ${what} failed")
  endif()
endfunction()
