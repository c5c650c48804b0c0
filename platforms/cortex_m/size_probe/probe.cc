// The size probes' link root (the ELF entry): it references nothing, so a probe linked
// with --gc-sections keeps only what its other roots pull in:
//   the baseline        nothing more: what every other probe is measured against
//   the runtime core    -Wl,--undefined=<f> for every C API function f (loader,
//                       verifier, executor, C API, status strings)
//   one kernel          -Wl,--undefined=<its KernelEntry> (write_sizes.cmake): the entry,
//                       its check and run functions, their helpers and whatever
//                       libc/libm/libgcc code they call
extern "C" const void* mote_size_probe_root() { return nullptr; }
