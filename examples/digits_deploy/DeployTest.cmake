# ctest's small run of the main journey: 1 epoch, trace, compile, quantize
# (calibrated on the training images), compare.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(step
    "${DEPLOY};train;--data;${DATA};--work;${WORK};--epochs;1"
    "${TCC};compile;${WORK}/model.ir;-o;${WORK}/model.bin"
    "${TCC};quantize;${WORK}/model.ir;--calibrate;${DATA}/train-images-idx3-ubyte;--normalize;0.5,0.5;--eval-data;${WORK}/x_test.npy;--eval-labels;${WORK}/y_test.npy;-o;${WORK}/model.int8.ir"
    "${TCC};compile;${WORK}/model.int8.ir;-o;${WORK}/model.int8.bin"
    "${DEPLOY};compare;--work;${WORK};--repeats;1")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${step}")
  endif()
endforeach()
