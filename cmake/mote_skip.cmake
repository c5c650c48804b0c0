# mote_skip(<message>...): leaves something out of the build because a tool or a file it
# needs is missing (not because an option turned it off). Prints the message as a STATUS
# line, or fails the configure step when the environment variable CI is set (CI systems
# set it; tools/test.sh sets it too), so no test vanishes from CI unnoticed. The caller
# then returns or skips the part.
function(mote_skip)
  string(JOIN "" _message ${ARGN})
  if(DEFINED ENV{CI} AND NOT "$ENV{CI}" STREQUAL "" AND NOT "$ENV{CI}" STREQUAL "false")
    message(FATAL_ERROR "${_message} (CI is set: nothing may be skipped)")
  endif()
  message(STATUS "${_message}")
endfunction()
