# Runs an example job as CI does — the real binary, no X display, no Qt platform plugin — into a
# fresh folder, then, given a CHECKER, checks its outputs (app_job_output_check: re-import,
# validation, goldens).
# -D STUDIO=<kinetic-studio> [-D CHECKER=<app_job_output_check>] -D JOB=<job.json> -D OUT=<folder>
file(REMOVE_RECURSE "${OUT}")
string(TIMESTAMP started "%s")
execute_process(
  COMMAND env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "${STUDIO}" --headless "${JOB}" --output-dir "${OUT}"
  RESULT_VARIABLE job_result OUTPUT_VARIABLE job_output ERROR_VARIABLE job_errors)
message("${job_output}${job_errors}")
if(NOT job_result EQUAL 0)
  message(FATAL_ERROR "the example job failed (exit ${job_result})")
endif()
if(NOT CHECKER)
  return()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "KINETIC_JOB_OUTPUT=${OUT}" "${CHECKER}"
                RESULT_VARIABLE check_result OUTPUT_VARIABLE check_output ERROR_VARIABLE check_errors)
message("${check_output}${check_errors}")
if(NOT check_result EQUAL 0)
  message(FATAL_ERROR "the example job's outputs fail their checks")
endif()
