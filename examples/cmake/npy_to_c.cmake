# Writes the payload of a .npy file (format 1.x, any dtype) as a C array:
#   cmake -DNPY=in0.npy -DOUT=sample_input.c -P npy_to_c.cmake
# defines `const uint8_t sample_input[]` (4-byte aligned) and `sample_input_bytes`.
if(NOT NPY OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DNPY=FILE.npy -DOUT=FILE.c -P npy_to_c.cmake")
endif()
file(READ "${NPY}" _hex HEX)
string(SUBSTRING "${_hex}" 0 12 _magic)
if(NOT _magic STREQUAL "934e554d5059")  # \x93NUMPY
  message(FATAL_ERROR "${NPY}: not a .npy file")
endif()
string(SUBSTRING "${_hex}" 12 2 _major)
if(NOT _major STREQUAL "01")
  message(FATAL_ERROR "${NPY}: .npy format version ${_major} (expected 1)")
endif()
string(SUBSTRING "${_hex}" 16 2 _lo)
string(SUBSTRING "${_hex}" 18 2 _hi)
math(EXPR _header_bytes "0x${_hi}${_lo}")
math(EXPR _payload_start "2 * (10 + ${_header_bytes})")
string(SUBSTRING "${_hex}" ${_payload_start} -1 _payload)
string(LENGTH "${_payload}" _digits)
math(EXPR _bytes "${_digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _array "${_payload}")
set(_row "")
foreach(_i RANGE 15)
  string(APPEND _row "0x..,")
endforeach()
string(REGEX REPLACE "(${_row})" "\\1\n  " _array "${_array}")
get_filename_component(_name "${NPY}" NAME)
file(WRITE "${OUT}.tmp"
"/* Generated from ${_name} by examples/cmake/npy_to_c.cmake. Do not edit. */
#include <stdint.h>

const uint32_t sample_input_bytes = ${_bytes}u;
__attribute__((aligned(4))) const uint8_t sample_input[${_bytes}] = {
  ${_array}
};
")
file(RENAME "${OUT}.tmp" "${OUT}")
