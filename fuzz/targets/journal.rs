//! AFL++ target: [`kubectl_myops_fuzz::journal`].
fn main() {
    afl::fuzz!(|data: &[u8]| kubectl_myops_fuzz::journal(data));
}
