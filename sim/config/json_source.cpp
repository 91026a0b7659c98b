#include "sim/config/json_source.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <vector>

#include "sim/common/json_input.hpp"
#include "sim/config/config_error.hpp"
#include "sim/config/config_schema.hpp"

namespace agx::config_detail {

namespace fs = std::filesystem;
using nlohmann::json;

std::string ConfigDocument::where(const std::string& key) const {
    for (std::string k = key; !k.empty();) {
        if (auto it = origin.find(k); it != origin.end()) return it->second;
        const auto dot = k.rfind('.');
        k = dot == std::string::npos ? std::string() : k.substr(0, dot);
    }
    return file;
}

std::string ConfigDocument::latest(const std::string& key,
                                   const std::vector<std::string>& others) const {
    auto rank = [&](const std::string& k) {
        return std::find(order.begin(), order.end(), where(k)) - order.begin();
    };
    std::string best = key;
    for (const std::string& k : others)
        if (rank(k) > rank(best)) best = k;
    return best;
}

bool is_leaf_object(const json& j) {
    return j.is_object() && j.contains("value");
}

namespace {

bool is_group(const json& j) {
    return j.is_object() && !is_leaf_object(j);
}

// nlohmann keeps the last of two equal keys without a word; a duplicated key
// in a config is almost always an editing mistake, so it is an error.
class DuplicateKeyCheck {
  public:
    explicit DuplicateKeyCheck(std::string file) : file_(std::move(file)) {}

    bool operator()(int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
                frames_.push_back({true, {}, {}});
                break;
            case json::parse_event_t::array_start:
                frames_.push_back({false, {}, {}});
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                if (!frames_.empty()) frames_.pop_back();
                break;
            case json::parse_event_t::key: {
                Frame& f = frames_.back();
                f.key = parsed.get<std::string>();
                if (!f.keys.insert(f.key).second)
                    throw config_error(file_, path(), "duplicate key (given twice in one object)");
                break;
            }
            default:
                break;
        }
        return true;
    }

  private:
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;
    };
    std::string path() const {
        std::string p;
        for (const Frame& f : frames_)
            if (f.object) p = key_path(p, f.key);
        return p;
    }
    std::string file_;
    std::vector<Frame> frames_;
};

json read_config_file(const std::string& path) {
    return agx::read_json_file(path, "config file", DuplicateKeyCheck(path));
}

// Records `file` as the origin of `path` and of every key under it.
void mark_origin(const std::string& path, const json& value, const std::string& file,
                 std::map<std::string, std::string>& origin) {
    origin[path] = file;
    if (is_group(value))
        for (const auto& [k, v] : value.items()) mark_origin(key_path(path, k), v, file, origin);
}

void merge_into(json& base, const json& child, const std::string& prefix, const std::string& file,
                std::map<std::string, std::string>& origin) {
    for (const auto& [k, v] : child.items()) {
        const std::string path = key_path(prefix, k);
        if (base.contains(k) && is_group(base[k]) && is_group(v)) {
            merge_into(base[k], v, path, file, origin);
        } else {
            base[k] = v;
            mark_origin(path, v, file, origin);
        }
    }
}

ConfigDocument read_chain(const std::string& path, std::vector<std::string>& chain) {
    json j = read_config_file(path);
    if (!j.is_object()) throw config_error(path, "", "the top level must be a JSON object");

    ConfigDocument doc;
    if (auto ext = j.find("extends"); ext != j.end()) {
        if (!ext->is_string() || ext->get<std::string>().empty())
            throw config_error(path, "extends",
                               "expected the name of a config file, e.g. \"m1.json\"");
        const std::string base =
            (fs::path(path).parent_path() / ext->get<std::string>()).lexically_normal().string();
        std::error_code ec;
        if (!fs::is_regular_file(base, ec))
            throw config_error(path, "extends", "no such config file: " + base);
        const std::string id = fs::weakly_canonical(base, ec).string();
        for (std::size_t i = 0; i < chain.size(); ++i) {
            if (chain[i] != id) continue;
            std::string cycle;
            for (std::size_t n = i; n < chain.size(); ++n)
                cycle += fs::path(chain[n]).filename().string() + " -> ";
            throw config_error(path, "extends",
                               "cycle: " + cycle + fs::path(id).filename().string());
        }
        chain.push_back(id);
        doc = read_chain(base, chain);
        chain.pop_back();
        j.erase("extends");
    }
    merge_into(doc.tree, j, "", path, doc.origin);
    doc.file = path;
    doc.order.push_back(path);
    return doc;
}

}  // namespace

ConfigDocument read_document(const std::string& path) {
    std::error_code ec;
    std::vector<std::string> chain{fs::weakly_canonical(path, ec).string()};
    return read_chain(path, chain);
}

void apply_override(ConfigDocument& doc, const std::string& expr) {
    // A message quotes the override, shortened: a value may be any length.
    const std::string where = "--set " + (expr.size() <= 120 ? expr : expr.substr(0, 100) + "...");
    const auto eq = expr.find('=');
    if (eq == std::string::npos || eq == 0)
        throw config_error(where, "", "expected key.path=value, e.g. core.l1d.size_bytes=16384");
    const std::string key = expr.substr(0, eq);
    const std::string text = expr.substr(eq + 1);

    const KeySet& keys = known_keys();
    if (keys.groups.count(key))
        throw config_error(where, "",
                           "'" + key + "' is a group of settings; --set takes one setting, e.g. " +
                               *keys.leaves.lower_bound(key + "."));
    if (!keys.leaves.count(key)) {
        const std::string hint = nearest_key(key);
        throw config_error(
            where, "",
            "unknown key '" + key + "'" + (hint.empty() ? "" : " (did you mean " + hint + "?)"));
    }

    // A value that parses as JSON is JSON (16384, 1.3, [..]); anything else is
    // a string, so `replacement=lru` needs no quotes.
    std::optional<json> parsed = parse_json_if_json(text, where);
    if (!parsed && !is_utf8(text)) throw config_error(where, "", "the value is not UTF-8 text");
    json value = parsed ? std::move(*parsed) : json(text);

    std::string pointer;
    for (char c : key) pointer += c == '.' ? '/' : c;
    try {
        doc.tree[json::json_pointer("/" + pointer)] =
            json{{"value", value}, {"source", "command line --set"}};
    } catch (const json::exception&) {
        // Some key above it holds a value instead of a group in the file.
        throw config_error(
            where, "",
            "cannot set '" + key + "': " + doc.where(key) + " has a value, not a group, above it");
    }
    doc.origin[key] = where;
    doc.order.push_back(where);
}

}  // namespace agx::config_detail
