#include "sim/common/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <streambuf>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"

namespace agx {

namespace fs = std::filesystem;

namespace {

// mkstemp and mkdtemp create owner-only files; an output file gets the
// permissions an ordinary open() would give it.
mode_t current_umask() {
    static const mode_t mask = [] {
        const mode_t m = ::umask(0);
        ::umask(m);
        return m;
    }();
    return mask;
}

// "<path>.partial-XXXXXX" as a writable buffer for mkstemp/mkdtemp.
std::vector<char> temp_template(const std::string& path) {
    const std::string t = path + ".partial-XXXXXX";
    return std::vector<char>(t.c_str(), t.c_str() + t.size() + 1);
}

// What a file is, to tell whether two paths name the same one: the device
// and inode of an existing file, else the path made absolute and canonical.
struct Identity {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    std::string path;
};

Identity identify(const std::string& p) {
    Identity id;
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(p, ec);
    if (ec) canonical = fs::absolute(p, ec).lexically_normal();
    id.path = canonical.string();
    struct stat st;
    if (::stat(p.c_str(), &st) == 0) {
        id.exists = true;
        id.dev = st.st_dev;
        id.ino = st.st_ino;
    }
    return id;
}

bool same_file(const Identity& a, const Identity& b) {
    if (a.exists && b.exists) return a.dev == b.dev && a.ino == b.ino;
    return a.path == b.path;
}

// The command's declared inputs and the outputs open now.
struct Registry {
    std::mutex mutex;
    std::vector<Identity> inputs;
    std::vector<std::pair<const void*, Identity>> outputs;
};

Registry& registry() {
    static Registry r;
    return r;
}

// Registers `owner`'s output `path`, refusing one that is an input or
// another output of the command.
void claim_output(const void* owner, const std::string& path) {
    const Identity id = identify(path);
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const Identity& in : r.inputs)
        if (same_file(in, id))
            throw InputError(path, "is an input of this command: an output may not replace it");
    for (const auto& [other, out] : r.outputs)
        if (same_file(out, id)) throw InputError(path, "is named as two outputs of this command");
    r.outputs.emplace_back(owner, id);
}

void release_output(const void* owner) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.outputs.erase(std::remove_if(r.outputs.begin(), r.outputs.end(),
                                   [&](const auto& o) { return o.first == owner; }),
                    r.outputs.end());
}

// Refuses a target that renaming over would harm: anything but an absent
// path or a regular file the user may write.
void check_file_target(const std::string& path) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) return;  // absent: created
    if (S_ISLNK(st.st_mode))
        throw InputError(path,
                         "is a symbolic link: outputs are not written through links (name the "
                         "file it points to)");
    if (!S_ISREG(st.st_mode))
        throw InputError(path, std::string("is ") + file_kind_name(st.st_mode) +
                                   ": outputs replace only regular files");
    if ((st.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0)
        throw InputError(path, "is read-only: an output does not replace it");
}

}  // namespace

// Writes to the temporary's descriptor; the first failed write throws
// InputError with the system's reason (the stream rethrows it).
class OutputFile::Buffer : public std::streambuf {
  public:
    Buffer(int fd, std::string path) : fd_(fd), path_(std::move(path)), data_(1 << 16) {
        setp(data_.data(), data_.data() + data_.size());
    }
    ~Buffer() override {
        if (fd_ >= 0) ::close(fd_);
    }
    // Writes what is buffered and closes the descriptor.
    void close() {
        drain();
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail();
    }

  protected:
    int_type overflow(int_type ch) override {
        drain();
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        if (n > epptr() - pptr()) {
            drain();
            if (n >= static_cast<std::streamsize>(data_.size())) {
                write_all(s, static_cast<std::size_t>(n));
                return n;
            }
        }
        std::memcpy(pptr(), s, static_cast<std::size_t>(n));
        pbump(static_cast<int>(n));
        return n;
    }
    int sync() override {
        drain();
        return 0;
    }

  private:
    [[noreturn]] void fail() const {
        throw InputError(path_, std::string("cannot write: ") + std::strerror(errno));
    }
    void write_all(const char* p, std::size_t n) {
        while (n > 0) {
            const ssize_t w = ::write(fd_, p, n);
            if (w < 0) {
                if (errno == EINTR) continue;
                fail();
            }
            p += w;
            n -= static_cast<std::size_t>(w);
        }
    }
    void drain() {
        write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
        setp(data_.data(), data_.data() + data_.size());
    }

    int fd_;
    std::string path_;
    std::vector<char> data_;
};

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    check_file_target(path_);
    claim_output(this, path_);
    std::vector<char> name = temp_template(path_);
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
        const std::string reason = std::strerror(errno);
        release_output(this);
        throw InputError(path_, "cannot create output file: " + reason);
    }
    temp_ = name.data();
    ::fchmod(fd, 0666 & ~current_umask());
    buffer_ = std::make_unique<Buffer>(fd, path_);
    out_ = std::make_unique<std::ostream>(buffer_.get());
    out_->exceptions(std::ios::badbit);
}

OutputFile::~OutputFile() {
    out_.reset();
    buffer_.reset();  // closes the descriptor, writing nothing more
    if (!committed_) std::remove(temp_.c_str());
    release_output(this);
}

void OutputFile::commit() {
    out_->flush();
    buffer_->close();
    check_file_target(path_);  // what may have appeared there meanwhile
    if (std::rename(temp_.c_str(), path_.c_str()) != 0)
        throw InputError(path_, std::string("cannot write output file: ") + std::strerror(errno));
    committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& text) {
    OutputFile out(path);
    out.stream() << text;
    out.commit();
}

std::string make_temp_directory_beside(const std::string& path, const std::string& what) {
    std::vector<char> name = temp_template(path);
    if (!::mkdtemp(name.data()))
        throw InputError(what, std::string("cannot create: ") + std::strerror(errno));
    ::chmod(name.data(), 0777 & ~current_umask());
    return name.data();
}

OutputDirectory::OutputDirectory(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
    struct stat st;
    if (::lstat(path_.c_str(), &st) == 0) {
        std::error_code ec;
        if (S_ISLNK(st.st_mode))
            throw InputError(what_,
                             "is a symbolic link: outputs are not written through links (name "
                             "the directory it points to)");
        if (!S_ISDIR(st.st_mode) || !fs::is_empty(path_, ec) || ec)
            throw InputError(what_, "exists and is not an empty directory");
    }
    claim_output(this, path_);
    try {
        std::error_code ec;
        const fs::path parent = fs::path(path_).parent_path();
        if (!parent.empty()) fs::create_directories(parent, ec);
        if (ec) throw InputError(what_, "cannot create: " + ec.message());
        temp_ = make_temp_directory_beside(path_, what_);
    } catch (...) {
        release_output(this);
        throw;
    }
}

OutputDirectory::~OutputDirectory() {
    std::error_code ec;
    if (!committed_) fs::remove_all(temp_, ec);
    release_output(this);
}

void OutputDirectory::commit() {
    std::error_code ec;
    fs::rename(temp_, path_, ec);  // replaces an empty directory, as checked above
    if (ec) throw InputError(what_, "cannot complete: " + ec.message());
    committed_ = true;
}

void declare_input(const std::string& path) {
    const Identity id = identify(path);
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const auto& [owner, out] : r.outputs)
        if (same_file(out, id))
            throw InputError(path, "is an input of this command: an output may not replace it");
    r.inputs.push_back(id);
}

void clear_declared_inputs() {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.inputs.clear();
}

}  // namespace agx
