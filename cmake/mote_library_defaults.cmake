# mote_library_defaults(<target>): what every Mote library (runtime, kernels, the
# Cortex-M support) compiles with, wherever it is built from: the checkout's root, a
# user's add_subdirectory(<mote> <bindir>), or add_subdirectory of runtime/ or kernels/.
#   - for its C++ sources: no exceptions, no RTTI (C++17 is the caller's
#     target_compile_features: the C-only Cortex-M support needs no C++);
#   - -Os when the project names no build type (a single-configuration generator with an
#     empty CMAKE_BUILD_TYPE would otherwise build the kernels at -O0: five times slower
#     and twice the code, while `mote size` assumes -Os). A build type the user names
#     (Release, MinSizeRel, Debug, ...) is left alone.
#   - the alias Mote::<name> (mote_runtime -> Mote::runtime), the same name an installed
#     package's targets have (find_package(Mote)), so a firmware links the same names
#     either way.
function(mote_library_defaults target alias)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti>
    $<$<STREQUAL:$<CONFIG>,>:-Os>)
  add_library(Mote::${alias} ALIAS ${target})
endfunction()
