# ctest's small run of the main journey: 1 epoch, trace, compile, compare.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(step
    "${DEPLOY};train;--data;${DATA};--work;${WORK};--epochs;1"
    "${TCC};compile;${WORK}/model.ir;-o;${WORK}/model.bin"
    "${DEPLOY};compare;--work;${WORK};--repeats;1")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${step}")
  endif()
endforeach()
