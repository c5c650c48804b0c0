# mote_libraries(): defines the targets mote_runtime and mote_kernels in a firmware
# project for one core (examples/firmware, tests/firmware/kernel_link), so that it links
# `mote_kernels mote_runtime` either way:
#   MOTE_LIBRARY_DIR unset  built here from runtime/ and kernels/ (add_subdirectory)
#   MOTE_LIBRARY_DIR=DIR    the prebuilt libmote_runtime.a and libmote_kernels.a in DIR,
#                           compiled for this core with this project's flags, e.g. the
#                           -Os pair a Mote build installs in build/firmware/lib-<core>/
#                           (what the main build passes, so the kernels compile once per
#                           core and flavour)
# Expects MOTE_ROOT (the Mote source tree).
macro(mote_libraries)
  if(MOTE_LIBRARY_DIR)
    add_library(mote_runtime STATIC IMPORTED)
    set_target_properties(mote_runtime PROPERTIES
      IMPORTED_LOCATION ${MOTE_LIBRARY_DIR}/libmote_runtime.a
      INTERFACE_INCLUDE_DIRECTORIES ${MOTE_ROOT}/runtime/include)
    add_library(mote_kernels STATIC IMPORTED)
    set_target_properties(mote_kernels PROPERTIES
      IMPORTED_LOCATION ${MOTE_LIBRARY_DIR}/libmote_kernels.a
      INTERFACE_INCLUDE_DIRECTORIES ${MOTE_ROOT}/kernels
      INTERFACE_LINK_LIBRARIES "mote_runtime;m")
  else()
    add_subdirectory(${MOTE_ROOT}/runtime runtime)
    add_subdirectory(${MOTE_ROOT}/kernels kernels)
  endif()
endmacro()
