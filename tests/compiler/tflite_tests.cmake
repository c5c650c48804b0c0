# .tflite front end: importer tests on the shared models and on small models the tests
# build with the generated flatbuffers builder (included from
# tests/compiler/CMakeLists.txt).
add_executable(tflite_frontend_tests
  ${CMAKE_CURRENT_LIST_DIR}/tflite_import_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/tflite_quirks_test.cc
)
target_link_libraries(tflite_frontend_tests PRIVATE mote_compiler GTest::gtest_main)
target_include_directories(tflite_frontend_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(tflite_frontend_tests PRIVATE ${MOTE_TEST_DEFINES})
target_compile_options(tflite_frontend_tests PRIVATE -Wall -Wextra)
gtest_discover_tests(tflite_frontend_tests PROPERTIES LABELS unit TIMEOUT ${MOTE_TIMEOUT_unit} DISCOVERY_TIMEOUT 60)
