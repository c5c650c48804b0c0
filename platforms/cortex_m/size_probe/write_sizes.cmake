# Links one probe per kernel entry (the baseline's link line plus the entry as a root),
# reads the probe ELFs' text sizes (arm-none-eabi-size, Berkeley "text": code plus
# read-only data) and writes the JSON described in CMakeLists.txt.
function(text_bytes elf out)
  execute_process(COMMAND ${SIZE} ${elf} OUTPUT_VARIABLE _out RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${SIZE} ${elf} failed")
  endif()
  string(REGEX MATCH "\n *([0-9]+)" _match "${_out}")
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

text_bytes(${DIR}/probe_baseline.elf _baseline)
text_bytes(${DIR}/probe_runtime.elf _runtime)
math(EXPR _runtime "${_runtime} - ${_baseline}")
set(_json "{\n  \"core\": \"${CORE}\",\n  \"optimization\": \"-Os\",\n  \"runtime_text_bytes\": ${_runtime},\n  \"kernels\": {")
set(_sep "")
foreach(_entry IN LISTS ENTRIES)
  # The probe: the baseline's root and link line, with the entry (mote::<entry>, a
  # namespace-scope object: _ZN4mote<length><entry>E) kept as a --gc-sections root.
  string(LENGTH "${_entry}" _length)
  set(_elf ${DIR}/probe_${_entry}.elf)
  execute_process(COMMAND ${CXX} ${FLAGS} -Wl,--undefined=_ZN4mote${_length}${_entry}E ${ROOT} -o ${_elf} ${LIBS}
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "linking the size probe of ${_entry} failed: ${_err}")
  endif()
  text_bytes(${_elf} _bytes)
  math(EXPR _bytes "${_bytes} - ${_baseline}")
  string(APPEND _json "${_sep}\n    \"${_entry}\": ${_bytes}")
  set(_sep ",")
endforeach()
string(APPEND _json "\n  }\n}\n")
file(WRITE ${OUT}.tmp "${_json}")
file(RENAME ${OUT}.tmp ${OUT})
