# Runs digits_cnn for EPOCHS epochs straight and, separately, in two halves
# joined by a checkpoint; both must reach the accuracy floor and print the
# same final line (accuracy and a digest of every parameter).
# -DPROGRAM=<digits_cnn> -DDATA=<idx dir> -DWORK=<scratch folder>
set(EPOCHS 6)
math(EXPR HALF "${EPOCHS} / 2")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(run out)
  execute_process(COMMAND ${PROGRAM} --data ${DATA} --epochs ${EPOCHS} ${ARGN}
                  OUTPUT_VARIABLE stdout RESULT_VARIABLE rc)
  message("${stdout}")
  if(rc)
    message(FATAL_ERROR "digits_cnn ${ARGN} failed (exit ${rc})")
  endif()
  string(REGEX MATCH "final test accuracy [^\n]*" final "${stdout}")
  set(${out} "${final}" PARENT_SCOPE)
endfunction()
run(straight --workers 2)
run(first --checkpoint ${WORK}/ck.safetensors --stop-after ${HALF})
run(resumed --checkpoint ${WORK}/ck.safetensors --resume --workers 1)
if(NOT straight OR NOT straight STREQUAL resumed)
  message(FATAL_ERROR "resumed run differs:\n  straight: ${straight}\n  resumed:  ${resumed}")
endif()
