#include "sim/model/stats_tree.hpp"

#include "sim/model/stats_source.hpp"

namespace agx {

nlohmann::json collect_stats(const sc_core::sc_object& root, const std::string& path,
                             std::vector<StatDeclaration>* declarations) {
    nlohmann::json node = nlohmann::json::object();
    if (const auto* source = dynamic_cast<const StatsSource*>(&root)) {
        StatsWriter out(node, path, declarations);
        source->report_stats(out);
    }
    for (const sc_core::sc_object* child : root.get_child_objects()) {
        if (!dynamic_cast<const sc_core::sc_module*>(child)) continue;  // ports, sockets, processes
        node[child->basename()] =
            collect_stats(*child, path + "." + child->basename(), declarations);
    }
    return node;
}

}  // namespace agx
