#pragma once

namespace mote {

// Parses argv and runs one subcommand. Every failure prints one line "error: ..." on
// stderr and returns non-zero (2 for usage errors, 1 for everything else).
int run_cli(int argc, char** argv);

}  // namespace mote
