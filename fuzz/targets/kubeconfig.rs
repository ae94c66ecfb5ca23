//! AFL++ target: [`kubectl_myops_fuzz::kubeconfig`].
fn main() {
    afl::fuzz!(|data: &[u8]| kubectl_myops_fuzz::kubeconfig(data));
}
