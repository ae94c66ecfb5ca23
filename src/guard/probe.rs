//! The probe requests of `policies verify`: a JSON patch or a delete of one object sent as a
//! server-side dry run (`dryRun=All`: admission runs, nothing is stored — Kubernetes API
//! concepts, "Dry-run"), as the current user, from a [`Grant`] that covers it, with the
//! answer kept whole: the HTTP status, the Status message of a refusal and the `Warning`
//! headers (a `Warn` binding's refusals arrive there, RFC 7234 §5.5 / KEP-1693).
//!
//! A probe is not journaled: it changes nothing and is no change the user asked for (the
//! journal records changes and their dry runs; a probe is a question to admission). It is
//! gated like the dry run of the change it is: the plugin.yaml verb (`patch`, `delete`), the
//! boundary and a SelfSubjectAccessReview, through the same [`Grant`].

use serde_json::Value;

use super::GuardError;
use super::change::{Change, Params, Request};
use super::mutation::ObjectRef;
use super::session::{Grant, Session};
use crate::cli::PatchType;

/// What a probe sends.
#[derive(Debug, Clone, Copy)]
pub enum ProbeRequest<'a> {
    /// A JSON patch (RFC 6902 operations).
    Patch(&'a Value),
    /// A delete, preconditioned on the object's uid when given.
    Delete(Option<&'a str>),
}

/// The API server's answer to a probe.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeAnswer {
    /// The HTTP status.
    pub code: u16,
    /// The Status message of a failure (empty on success).
    pub message: String,
    /// The texts of the `Warning` headers, in order.
    pub warnings: Vec<String>,
    /// The object the server answered with on success (the dry run's after-state).
    pub object: Option<Value>,
}

/// The field manager a probe patch names (a dry run stores no managed fields).
const FIELD_MANAGER: &str = "kubectl-myops-verify";

impl Session<'_> {
    /// Sends `req` for `obj` as a server-side dry run, when `grant` covers it (a `patch`, or a
    /// `delete`, review of the object), and returns the answer whatever its status.
    ///
    /// # Errors
    /// [`GuardError::Usage`] for a request the grant does not cover (a programming error) or
    /// a patch that is no list of operations; [`GuardError::Api`] when no answer came
    /// (transport, deadline).
    pub async fn probe(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        req: ProbeRequest<'_>,
    ) -> Result<ProbeAnswer, GuardError> {
        let change = match req {
            ProbeRequest::Patch(body) => Change::Patch {
                patch_type: PatchType::Json,
                body: body.clone(),
                subresource: None,
            },
            ProbeRequest::Delete(uid) => Change::Delete {
                uid: uid.map(str::to_string),
                resource_version: None,
                propagation: None,
                grace_period: None,
                unrecoverable: false,
            },
        };
        let api = self.api_for(grant, obj, &change)?;
        let base = kube::core::Request::new(api.resource_url());
        let built = match change
            .request(FIELD_MANAGER, true)
            .map_err(GuardError::Usage)?
        {
            (Request::Patch { patch, .. }, Params::Patch(pp)) => base.patch(&obj.name, &pp, &patch),
            (Request::Delete(dp), _) => base.delete(&obj.name, &dp),
            _ => {
                return Err(GuardError::Usage(
                    "internal: a probe is a patch or a delete".into(),
                ));
            }
        }
        .map_err(|e| GuardError::Usage(format!("cannot build the probe request: {e}")))?;
        let client = self.client().clone();
        let (code, warnings, body) = self
            .call("the probe (a server-side dry run)", async move {
                let res = client.send(built.map(kube::client::Body::from)).await?;
                let code = res.status().as_u16();
                let warnings: Vec<String> = res
                    .headers()
                    .get_all(http::header::WARNING)
                    .iter()
                    // Lossy, not `to_str`: the API server sends a message's UTF-8 as is
                    // (an em dash), which `to_str` refuses, and a dropped warning would read
                    // as an allowed change.
                    .map(|v| warning_text(&String::from_utf8_lossy(v.as_bytes())))
                    .collect();
                let body = res.into_body().collect_bytes().await?;
                Ok((code, warnings, body))
            })
            .await
            .map_err(GuardError::from)?;
        let value: Option<Value> = serde_json::from_slice(&body).ok();
        let ok = (200..300).contains(&code);
        let message = match (&value, ok) {
            (_, true) => String::new(),
            (Some(v), false) => v["message"].as_str().unwrap_or_default().to_string(),
            (None, false) => String::from_utf8_lossy(&body).chars().take(400).collect(),
        };
        Ok(ProbeAnswer {
            code,
            message,
            warnings,
            object: value.filter(|_| ok),
        })
    }
}

/// The text of one `Warning` header value (`299 - "text"`, RFC 7234 §5.5: code, agent,
/// quoted text with `\"` and `\\` escapes); a value of another shape is kept whole.
pub fn warning_text(header: &str) -> String {
    let mut parts = header.splitn(3, ' ');
    let (Some(_code), Some(_agent), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return header.to_string();
    };
    let Some(inner) = rest.strip_prefix('"') else {
        return header.to_string();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '"' => break,
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::warning_text;

    #[test]
    fn a_warning_header_gives_its_quoted_text_unescaped() {
        assert_eq!(
            warning_text(
                r#"299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'p': denied by \"x\"""#
            ),
            r#"Validation failed for ValidatingAdmissionPolicy 'p' with binding 'p': denied by "x""#
        );
        assert_eq!(warning_text("odd"), "odd");
    }
}
