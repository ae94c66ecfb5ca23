//! PEM decoding for the CA bundles a connection trusts: a kubeconfig's
//! `certificate-authority-data` and a pod's service-account `ca.crt`.

/// The DER bytes of every `CERTIFICATE` block of a PEM text (RFC 7468), as kube's `certs`.
pub(crate) fn certificates(pem: &str) -> Vec<Vec<u8>> {
    use base64::Engine;
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    const END: &str = "-----END CERTIFICATE-----";
    let mut out = Vec::new();
    let mut rest = pem;
    while let Some(start) = rest.find(BEGIN) {
        let body = &rest[start + BEGIN.len()..];
        let Some(end) = body.find(END) else { break };
        let b64: String = body[..end].split_whitespace().collect();
        if let Ok(der) = base64::engine::general_purpose::STANDARD.decode(b64) {
            out.push(der);
        }
        rest = &body[end + END.len()..];
    }
    out
}
