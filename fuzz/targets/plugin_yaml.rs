//! AFL++ target: [`kubectl_myops_fuzz::plugin_yaml`].
fn main() {
    afl::fuzz!(|data: &[u8]| kubectl_myops_fuzz::plugin_yaml(data));
}
