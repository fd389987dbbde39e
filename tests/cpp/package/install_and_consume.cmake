# ctest script: installs the build tree into a scratch prefix, then configures, builds and runs
# tests/cpp/package/consumer against it. Inputs: BUILD_DIR, SOURCE_DIR, SCRATCH, GENERATOR, MAKE.
file(REMOVE_RECURSE "${SCRATCH}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${SCRATCH}/prefix"
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${SCRATCH}/build" -G "${GENERATOR}"
  "-DCMAKE_MAKE_PROGRAM=${MAKE}" "-DCMAKE_PREFIX_PATH=${SCRATCH}/prefix" -DCMAKE_BUILD_TYPE=Release
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer against ${SCRATCH}/prefix failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${SCRATCH}/build" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
execute_process(COMMAND "${SCRATCH}/build/consumer" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer ran but returned ${rc}")
endif()
