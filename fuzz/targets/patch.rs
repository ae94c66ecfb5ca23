//! AFL++ target: [`kubectl_myops_fuzz::patch`].
fn main() {
    afl::fuzz!(|data: &[u8]| kubectl_myops_fuzz::patch(data));
}
