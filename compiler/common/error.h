// Compile-time errors. Everything the compiler refuses is thrown as a CompileError whose
// message is one line naming the file, the node or op, and the expected vs actual value;
// the CLI prints it and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>

namespace mote {

class CompileError : public std::runtime_error {
 public:
  explicit CompileError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace mote
