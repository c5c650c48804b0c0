# install() rules of the libraries a firmware links, included from the root
# CMakeLists.txt. `cmake --install <build> --prefix <dir>` of a tree built for one core
# (a cortex-m preset, or -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi.cmake
# -DMOTE_CPU=<core>) writes
#   lib/libmote_runtime.a, lib/libmote_kernels.a    (and lib/libmote_cortex_m.a)
#   include/mote/*.h                                 the runtime's C and C++ API
#   include/mote/cortex_m/*.h, share/mote/cortex_m/  cycle and instruction counters
#   lib/cmake/Mote/MoteConfig.cmake                  find_package(Mote): Mote::runtime,
#                                                    Mote::kernels, Mote::cortex_m,
#                                                    Mote::cortex_m_systick
#   lib/pkgconfig/mote.pc                            pkg-config --cflags --libs mote
# The package is for the core it was built for (Mote_CPU): MoteConfig.cmake refuses a
# project that configures another MOTE_CPU, or the host, because the objects would not
# link or would run wrong code.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

if(CMAKE_CROSSCOMPILING)
  set(MOTE_PACKAGE_CPU "${MOTE_CPU}")
else()
  set(MOTE_PACKAGE_CPU "host")
endif()

set_target_properties(mote_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(mote_kernels PROPERTIES EXPORT_NAME kernels)
set(_mote_install_targets mote_runtime mote_kernels)
if(TARGET mote_cortex_m)
  set_target_properties(mote_cortex_m PROPERTIES EXPORT_NAME cortex_m)
  set_target_properties(mote_cortex_m_systick PROPERTIES EXPORT_NAME cortex_m_systick)
  list(APPEND _mote_install_targets mote_cortex_m mote_cortex_m_systick)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/platforms/cortex_m/systick_handler.c
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mote/cortex_m)
endif()

install(TARGETS ${_mote_install_targets} EXPORT MoteTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mote/cortex_m)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/runtime/include/mote
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

set(_mote_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Mote)
install(EXPORT MoteTargets NAMESPACE Mote:: DESTINATION ${_mote_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/MoteConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/MoteConfig.cmake INSTALL_DESTINATION ${_mote_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/MoteConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/MoteConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/MoteConfigVersion.cmake
        DESTINATION ${_mote_cmake_dir})

# pkg-config: paths relative to the .pc file, so the prefix can move.
set(MOTE_PC_CORTEX_M_LIBS "")
if(TARGET mote_cortex_m)
  set(MOTE_PC_CORTEX_M_LIBS "-lmote_cortex_m")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/mote.pc.in ${CMAKE_CURRENT_BINARY_DIR}/mote.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mote.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
