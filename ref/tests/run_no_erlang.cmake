# The pure-C model needs no Erlang: configures SRC with -DTCS_LIVE=OFF in WORK, with erl,
# erlc and escript on PATH replaced by stand-ins that record being run and fail, builds
# tcsref, runs tests of it, and fails if anything ran Erlang.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/bin)
foreach(tool erl erlc escript)
  file(WRITE ${WORK}/bin/${tool} "#!/bin/sh\necho \"${tool} $*\" >> '${WORK}/erlang-was-run'\nexit 1\n")
  file(CHMOD ${WORK}/bin/${tool} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endforeach()
set(ENV{PATH} "${WORK}/bin:$ENV{PATH}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${rc}):\n${out}${err}")
  endif()
endfunction()
step("configure with TCS_LIVE=OFF" ${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/build -DTCS_LIVE=OFF)
step("build" ${CMAKE_COMMAND} --build ${WORK}/build --target tcsref --parallel 2)
step("ctest" ${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/build -R "^(cli_help|cli_usage|layers_ref)$"
     --output-on-failure)
if(EXISTS ${WORK}/erlang-was-run)
  file(READ ${WORK}/erlang-was-run ran)
  message(FATAL_ERROR "building the model without the live side ran Erlang:\n${ran}")
endif()
message(STATUS "configured, built and tested the model with TCS_LIVE=OFF; Erlang was not run")
