# mote_core_machine(<core> <machine_var> <clock_var>): the QEMU machine a Cortex-M core's
# firmware runs on (also the name of its linker script, platforms/cortex_m/ld/) and the
# SysTick clock QEMU gives that machine, in Hz. The same table as compiler/target/target.cc
# (which `mote run --device qemu-<core>` uses). There is no Cortex-M0+ model in QEMU;
# M0+ builds run on the Cortex-M3 board. An unknown core stops the configuration.
function(mote_core_machine core machine_var clock_var)
  if(core STREQUAL "cortex-m0plus" OR core STREQUAL "cortex-m3")
    set(_machine mps2-an385)
    set(_clock_hz 25000000)
  elseif(core STREQUAL "cortex-m4")
    set(_machine mps2-an386)
    set(_clock_hz 25000000)
  elseif(core STREQUAL "cortex-m7")
    set(_machine mps2-an500)
    set(_clock_hz 25000000)
  elseif(core STREQUAL "cortex-m33")
    set(_machine mps2-an505)
    set(_clock_hz 20000000)
  elseif(core STREQUAL "cortex-m55")
    set(_machine mps3-an547)
    set(_clock_hz 32000000)
  else()
    message(FATAL_ERROR "no QEMU machine for the core '${core}'")
  endif()
  set(${machine_var} ${_machine} PARENT_SCOPE)
  set(${clock_var} ${_clock_hz} PARENT_SCOPE)
endfunction()
