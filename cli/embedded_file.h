// A text file compiled into the `mote` binary (cmake/mote_embed_files.cmake writes the
// tables), so what a command writes out does not depend on where mote is installed.
#pragma once

namespace mote {

struct EmbeddedFile {
  const char* name;  // path relative to the folder it is written into
  const char* text;
};

}  // namespace mote
