// Host side of `mote run --device qemu-*`: prepares a scratch directory, starts QEMU on
// the runner firmware with the scratch directory as its working directory, and collects
// what the runner wrote there.
//
// The runner's command line travels as semihosting arguments, which QEMU joins with
// single spaces and passes on unquoted; so the runner only ever sees short relative
// names inside the scratch directory ("program.mote", ".", "in0.bin", ...) and the
// user's paths can contain any character. The program is linked (or copied) in.
#include "device_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "target/target.h"

namespace mote {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDevicePrefix = "qemu-";  // --device qemu-<core>, the core's runner-<core>.elf

constexpr int kFaultExitCode = 125;  // platforms/cortex_m/startup/startup.cc
constexpr int kDefaultTimeoutSeconds = 300;
constexpr const char* kProgramName = "program.mote";
constexpr const char* kLogName = "qemu.log";

[[noreturn]] void fail(const std::string& message) {
  std::string line = message;
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  throw std::runtime_error(line);
}

// The core a --device value names (target/target.h: the core's QEMU machine).
const TargetInfo& find_device(const std::string& name) {
  for (const TargetInfo& core : targets()) {
    if (core.qemu_machine != nullptr && name == kDevicePrefix + std::string(core.name)) return core;
  }
  fail("unknown device '" + name + "' (valid: host, " + target_list(true, kDevicePrefix) + ")");
}

fs::path firmware_dir() {
  if (const char* dir = std::getenv("MOTE_FIRMWARE_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
#ifdef MOTE_FIRMWARE_DIR
  return MOTE_FIRMWARE_DIR;
#else
  return {};
#endif
}

fs::path find_firmware(const TargetInfo& core) {
  const std::string device = kDevicePrefix + std::string(core.name);
  const fs::path dir = firmware_dir();
  const std::string file = std::string("runner-") + core.name + ".elf";
  if (dir.empty()) {
    fail(device + ": no firmware directory: set MOTE_FIRMWARE_DIR to the " +
         "directory holding " + file + " (built into <build>/firmware by the Mote build)");
  }
  const fs::path elf = dir / file;
  std::error_code error;
  if (!fs::is_regular_file(elf, error)) {
    fail(device + ": runner firmware " + elf.string() + " not found: " +
         "build it with `cmake --build <build dir>` (needs gcc-arm-none-eabi and " +
         "libnewlib-arm-none-eabi, and MOTE_BUILD_FIRMWARE=ON), or point MOTE_FIRMWARE_DIR " +
         "at a directory holding it");
  }
  return fs::absolute(elf);
}

fs::path find_qemu() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / "qemu-system-arm";
    if (::access(candidate.c_str(), X_OK) == 0) return fs::absolute(candidate);
  }
  fail("qemu-system-arm not found in PATH: install the qemu-system-arm package to run on "
       "emulated Cortex-M devices");
}

int timeout_seconds() {
  if (const char* text = std::getenv("MOTE_QEMU_TIMEOUT"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value <= 0 || value > 86400) {
      fail(std::string("MOTE_QEMU_TIMEOUT='") + text + "' is not a number of seconds in [1, 86400]");
    }
    return static_cast<int>(value);
  }
  return kDefaultTimeoutSeconds;
}

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = (tmp != nullptr && *tmp != '\0' ? std::string(tmp) : "/tmp");
    pattern += "/mote-qemu-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
      fail("cannot create a temporary directory from " + pattern + ": " + std::strerror(errno));
    }
    path_ = buffer.data();
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_file(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail("cannot write " + path.string());
}

bool read_file(const fs::path& path, std::vector<uint8_t>* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

std::string read_text(const fs::path& path) {
  std::vector<uint8_t> bytes;
  if (!read_file(path, &bytes)) return {};
  return std::string(bytes.begin(), bytes.end());
}

// The program appears in the scratch directory as kProgramName: a symbolic link when
// possible, a copy otherwise.
void place_program(const std::string& program_path, const fs::path& scratch) {
  std::error_code error;
  if (!fs::is_regular_file(program_path, error)) {
    fail("cannot open program file " + program_path + ": " +
         (fs::exists(program_path, error) ? "not a regular file" : "no such file"));
  }
  if (::access(program_path.c_str(), R_OK) != 0) {
    fail("cannot read program file " + program_path + ": " + std::strerror(errno));
  }
  const fs::path target = fs::absolute(program_path, error);
  fs::create_symlink(target, scratch / kProgramName, error);
  if (error) {
    fs::copy_file(program_path, scratch / kProgramName, error);
    if (error) fail("cannot copy program file " + program_path + ": " + error.message());
  }
}

struct ExitInfo {
  bool timed_out = false;
  bool signaled = false;
  int code = 0;  // exit status, or the signal number when signaled
};

// Runs argv[0] with `directory` as working directory, stdin from /dev/null and
// stdout+stderr into `log`; kills it after `timeout` seconds.
ExitInfo run_process(const std::vector<std::string>& argv, const fs::path& directory,
                     const fs::path& log, int timeout) {
  // Everything the child needs is prepared before fork(): after it, only
  // async-signal-safe calls.
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const std::string directory_text = directory.string();
  const std::string log_text = log.string();

  const pid_t pid = ::fork();
  if (pid < 0) fail(std::string("cannot start qemu-system-arm: fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log_text.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || ::dup2(in, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 ||
        ::dup2(out, STDERR_FILENO) < 0 || ::chdir(directory_text.c_str()) != 0) {
      ::_exit(127);
    }
    ::execv(args[0], args.data());
    static const char kMessage[] = "exec of qemu-system-arm failed\n";
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    ::_exit(127);
  }

  // Poll with a short, growing sleep: QEMU runs in ~0.05 s for small programs.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout);
  auto pause = std::chrono::microseconds(500);
  ExitInfo info;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (WIFSIGNALED(status)) {
        info.signaled = true;
        info.code = WTERMSIG(status);
      } else {
        info.code = WEXITSTATUS(status);
      }
      return info;
    }
    if (done < 0 && errno != EINTR) {
      fail(std::string("waiting for qemu-system-arm failed: ") + std::strerror(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      info.timed_out = true;
      return info;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

// The first line of `log` that starts with `prefix`, without the prefix; "" if none.
std::string find_line(const std::string& log, const std::string& prefix) {
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.compare(0, prefix.size(), prefix) == 0) return line.substr(prefix.size());
  }
  return {};
}

std::string first_line(const std::string& log) {
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) return line;
  }
  return "(no output)";
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

bool parse_npu_line(std::istringstream& fields, DeviceRunResult* result) {
  DeviceNpuRegion region;
  std::string which;
  if (!(fields >> region.op >> which >> region.address >> region.bytes)) return false;
  if (which == "payload") {
    region.region = -1;
  } else if (which.size() == 1 && which[0] >= '0' && which[0] <= '7') {
    region.region = which[0] - '0';
  } else {
    return false;
  }
  result->npu_regions.push_back(region);
  return true;
}

// Parses "op <index> <instructions>" lines, the "total <instructions>" line, the
// "arena <given bytes> <used bytes>" line, the "stack <bytes>" line, and for NPU programs the "memory <program>
// <arena> <fast scratch>" line and "npu <op> payload|<region> <address> <bytes>" lines.
void parse_profile(const std::string& text, const std::string& where, DeviceRunResult* result) {
  std::istringstream lines(text);
  std::string line;
  bool have_total = false, have_arena = false, have_stack = false;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    uint64_t index = 0, count = 0;
    if (key == "op" && (fields >> index >> count) && index == result->op_instructions.size()) {
      result->op_instructions.push_back(count);
    } else if (key == "total" && (fields >> count)) {
      result->total_instructions = count;
      have_total = true;
    } else if (key == "arena" && (fields >> result->arena_given_bytes >> result->arena_used_bytes)) {
      have_arena = true;
    } else if (key == "stack" && (fields >> result->stack_used_bytes)) {
      have_stack = true;
    } else if (key == "memory" &&
               (fields >> result->program_address >> result->arena_address >> result->fast_scratch_address)) {
      continue;  // a program with NPU ops: where the runner placed it
    } else if (key == "npu" && parse_npu_line(fields, result)) {
      continue;
    } else {
      fail(where + ": malformed profile line '" + line + "' from the runner");
    }
  }
  if (!have_total || !have_arena || !have_stack) fail(where + ": the runner wrote no profile");
}

}  // namespace

std::vector<std::string> device_names() {
  std::vector<std::string> names;
  for (const TargetInfo& core : targets())
    if (core.qemu_machine != nullptr) names.push_back(kDevicePrefix + std::string(core.name));
  return names;
}

DeviceRunResult run_on_device(const std::string& device_name, const std::string& program_path,
                              const std::vector<std::vector<uint8_t>>& inputs,
                              uint32_t output_count, uint32_t loop_limit) {
  return run_sequence_on_device(device_name, program_path, {inputs}, output_count, loop_limit);
}

namespace {

// One QEMU session of the runner for `core` in `scratch`, with `words` as its command line.
struct Session {
  ExitInfo exit;
  std::string log;
};

Session run_session(const TargetInfo& core, const fs::path& scratch, const std::vector<std::string>& words) {
  const fs::path firmware = find_firmware(core);
  const fs::path qemu = find_qemu();
  std::string semihosting = "enable=on,target=native";
  for (const std::string& word : words) semihosting += ",arg=" + word;
  const std::vector<std::string> argv = {
      qemu.string(), "-M", core.qemu_machine, "-display", "none", "-monitor", "none",
      "-serial", "null",
      // 1 instruction = 1 ns of virtual time: the runner's SysTick counts instructions.
      "-icount", "shift=0",
      "-semihosting-config", semihosting,
      "-kernel", firmware.string()};
  const fs::path log_path = scratch / kLogName;
  Session session;
  session.exit = run_process(argv, scratch, log_path, timeout_seconds());
  session.log = read_text(log_path);
  return session;
}

// The runner's error line about a job whose files live in `dir` ("" or "j<n>/"), with
// the user's program path for the runner's scratch name and without the input names.
std::string job_error(std::string error, const std::string& dir, const std::string& program_path,
                      size_t input_files) {
  replace_all(error, "'" + dir + kProgramName + "'", "'" + program_path + "'");
  for (size_t i = 0; i < input_files; ++i) replace_all(error, " '" + dir + "in" + std::to_string(i) + ".bin'", "");
  return error;
}

// Throws the one-line message for a session that did not end with status 0.
[[noreturn]] void fail_session(const Session& session, const std::string& where, const std::string& program_path,
                               size_t input_files) {
  const ExitInfo& exit = session.exit;
  if (exit.timed_out) {
    fail(where + ": the run of " + program_path + " did not finish within " + std::to_string(timeout_seconds()) +
         " s (set MOTE_QEMU_TIMEOUT to allow longer)");
  }
  if (exit.signaled) fail(where + ": qemu-system-arm was killed by signal " + std::to_string(exit.code));
  if (std::string error = find_line(session.log, "error: "); !error.empty()) {
    fail(where + ": " + job_error(error, "", program_path, input_files));
  }
  if (exit.code == kFaultExitCode) {
    const std::string fault = find_line(session.log, "fault: ");
    fail(where + ": emulated core faulted running " + program_path + (fault.empty() ? "" : ": " + fault));
  }
  if (session.log.find("Lockup") != std::string::npos) {
    fail(where + ": emulated core locked up (fault inside a fault handler) running " + program_path);
  }
  fail(where + ": qemu-system-arm exited with status " + std::to_string(exit.code) + ": " + first_line(session.log));
}

// Places a job's program and input files in `scratch`/`dir` ("" or "j<n>/") and returns
// its runner command line.
std::vector<std::string> place_job(const fs::path& scratch, const std::string& dir, const std::string& program_path,
                                   const std::vector<std::vector<std::vector<uint8_t>>>& runs, uint32_t loop_limit,
                                   const std::string& where) {
  if (runs.empty()) fail(where + ": no runs of " + program_path + " asked for");
  if (!dir.empty()) fs::create_directory(scratch / dir);
  place_program(program_path, scratch / dir);
  std::vector<std::string> words = {dir + kProgramName, dir.empty() ? "." : dir.substr(0, dir.size() - 1),
                                    std::to_string(loop_limit)};
  size_t index = 0;
  for (const auto& run : runs) {
    if (run.size() != runs[0].size()) fail(where + ": runs of " + program_path + " differ in input count");
    for (const std::vector<uint8_t>& input : run) {
      const std::string name = dir + "in" + std::to_string(index++) + ".bin";
      write_file(scratch / name, input);
      words.push_back(name);
    }
  }
  return words;
}

// What the runner wrote for a finished job in `scratch`/`dir`.
DeviceRunResult collect_job(const fs::path& scratch, const std::string& dir, const std::string& program_path,
                            size_t run_count, uint32_t output_count, const std::string& where) {
  DeviceRunResult result;
  for (size_t r = 0; r < run_count; ++r) {
    std::vector<std::vector<uint8_t>>& outputs = r == 0 ? result.outputs : result.later_outputs.emplace_back();
    for (uint32_t j = 0; j < output_count; ++j) {
      const std::string suffix = r == 0 ? ".bin" : ".r" + std::to_string(r) + ".bin";
      const fs::path path = scratch / dir / ("out" + std::to_string(j) + suffix);
      outputs.emplace_back();
      if (!read_file(path, &outputs.back())) {
        fail(where + ": the runner wrote no output " + std::to_string(j) + " of run " + std::to_string(r) +
             " for " + program_path);
      }
    }
  }
  parse_profile(read_text(scratch / dir / "profile.txt"), where, &result);
  return result;
}

size_t input_file_count(const std::vector<std::vector<std::vector<uint8_t>>>& runs) {
  size_t count = 0;
  for (const auto& run : runs) count += run.size();
  return count;
}

}  // namespace

DeviceRunResult run_sequence_on_device(const std::string& device_name, const std::string& program_path,
                                       const std::vector<std::vector<std::vector<uint8_t>>>& runs,
                                       uint32_t output_count, uint32_t loop_limit) {
  const TargetInfo& core = find_device(device_name);
  ScratchDir scratch;
  const std::vector<std::string> words = place_job(scratch.path(), "", program_path, runs, loop_limit, device_name);
  const Session session = run_session(core, scratch.path(), words);
  if (session.exit.timed_out || session.exit.signaled || session.exit.code != 0)
    fail_session(session, device_name, program_path, input_file_count(runs));
  return collect_job(scratch.path(), "", program_path, runs.size(), output_count, device_name);
}

std::vector<DeviceJobResult> run_jobs_on_device(const std::string& device_name, const std::vector<DeviceJob>& jobs) {
  const TargetInfo& core = find_device(device_name);
  find_firmware(core);  // a missing firmware or QEMU is the whole batch's error
  find_qemu();
  std::vector<DeviceJobResult> results(jobs.size());
  std::vector<bool> finished(jobs.size(), false);
  {
    ScratchDir scratch;
    std::string list;
    for (size_t i = 0; i < jobs.size(); ++i) {
      const DeviceJob& job = jobs[i];
      try {
        const std::vector<std::string> words =
            place_job(scratch.path(), "j" + std::to_string(i) + "/", job.program_path, job.runs, job.loop_limit,
                      device_name);
        for (size_t w = 0; w < words.size(); ++w) list += (w == 0 ? "" : " ") + words[w];
        list += "\n";
      } catch (const std::runtime_error& e) {
        results[i].error = e.what();
        finished[i] = true;
      }
    }
    write_file(scratch.path() / "jobs.txt", std::vector<uint8_t>(list.begin(), list.end()));
    run_session(core, scratch.path(), {"@jobs.txt"});
    // Whatever the session's end, every job with an error.txt or a profile.txt finished.
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (finished[i]) continue;
      const DeviceJob& job = jobs[i];
      const std::string dir = "j" + std::to_string(i) + "/";
      std::error_code ignored;
      if (fs::exists(scratch.path() / dir / "error.txt", ignored)) {
        results[i].error = device_name + ": " + job_error(first_line(read_text(scratch.path() / dir / "error.txt")),
                                                          dir, job.program_path, input_file_count(job.runs));
        finished[i] = true;
      } else if (fs::exists(scratch.path() / dir / "profile.txt", ignored)) {
        try {
          results[i].result =
              collect_job(scratch.path(), dir, job.program_path, job.runs.size(), job.output_count, device_name);
        } catch (const std::runtime_error& e) {
          results[i].error = e.what();
        }
        finished[i] = true;
      }
    }
  }
  // A job the session did not finish (the core faulted or the session timed out in it or
  // before it) runs alone, which names its failure exactly.
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (finished[i]) continue;
    try {
      results[i].result = run_sequence_on_device(device_name, jobs[i].program_path, jobs[i].runs,
                                                 jobs[i].output_count, jobs[i].loop_limit);
    } catch (const std::runtime_error& e) {
      results[i].error = e.what();
    }
  }
  return results;
}

}  // namespace mote
