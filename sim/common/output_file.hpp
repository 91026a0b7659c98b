// The output policy every writer follows.
//
// A file appears only when complete: it is written under a unique temporary
// name in its target's directory ("<path>.partial-XXXXXX", mkstemp) and
// renamed onto its name on commit(), which POSIX makes atomic; it is removed
// if the object dies uncommitted. Two runs writing the same path each write
// their own temporary, so the file holds one run's output whole, never a mix.
//
// The target is checked before anything is written, so a bad one fails first
// (exit 2, one line): only a regular file the user may write is replaced. A
// directory, device, FIFO or socket is refused (renaming over it would
// replace it with a regular file), as is a symbolic link (its target is
// not followed: name the target itself) and a read-only file. A target that
// is also an input of the command (declare_input) or another of its outputs
// is refused too. The first write error (a full disk) stops the writer with
// the system's reason, rather than at commit().
#pragma once

#include <memory>
#include <ostream>
#include <string>

namespace agx {

class OutputFile {
  public:
    explicit OutputFile(std::string path);  // throws InputError for a refused target
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Writes go to the temporary; a failed write throws InputError.
    std::ostream& stream() { return *out_; }
    void commit();  // throws InputError if the file cannot be completed

  private:
    class Buffer;
    std::string path_, temp_;
    std::unique_ptr<Buffer> buffer_;
    std::unique_ptr<std::ostream> out_;
    bool committed_ = false;
};

// Writes `text` to `path` through an OutputFile.
void write_file_atomically(const std::string& path, const std::string& text);

// A directory written whole: its files go to a new, empty directory beside
// `path` ("<path>.partial-XXXXXX", mkdtemp), renamed onto `path` on commit()
// (which replaces an empty directory and fails on a full one, so of two
// commands given the same directory one completes it and the other fails),
// and removed if the object dies uncommitted. `what` names it in messages
// ("--report out"). An existing `path` must be an empty directory.
class OutputDirectory {
  public:
    OutputDirectory(std::string path, std::string what);  // throws InputError
    ~OutputDirectory();
    OutputDirectory(const OutputDirectory&) = delete;
    OutputDirectory& operator=(const OutputDirectory&) = delete;

    // The path of `name` inside the temporary directory.
    std::string file(const std::string& name) const { return temp_ + "/" + name; }
    void commit();  // throws InputError

  private:
    std::string path_, what_, temp_;
    bool committed_ = false;
};

// A new, empty directory beside `path` ("<path>.partial-XXXXXX", mkdtemp),
// for a directory written whole and then renamed onto `path`. Throws
// InputError naming `what` if it cannot be made.
std::string make_temp_directory_beside(const std::string& path, const std::string& what);

// Declares `path` an input of the running command: no output of the command
// may then replace it (kernel record k.agxk -o k.agxk). A command declares the
// files the user named as its inputs; an output already open on the same file
// makes this throw.
void declare_input(const std::string& path);

// Forgets every declared input (for a process that runs several commands).
void clear_declared_inputs();

}  // namespace agx
