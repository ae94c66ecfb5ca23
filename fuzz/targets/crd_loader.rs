//! AFL++ target: [`kubectl_myops_fuzz::crd_loader`].
fn main() {
    afl::fuzz!(|data: &[u8]| kubectl_myops_fuzz::crd_loader(data));
}
