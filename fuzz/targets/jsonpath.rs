//! AFL++ target: [`kubectl_myops_fuzz::jsonpath`].
fn main() {
    afl::fuzz!(|data: &[u8]| kubectl_myops_fuzz::jsonpath(data));
}
