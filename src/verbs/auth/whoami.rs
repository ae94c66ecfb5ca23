//! `auth whoami`: the SelfSubjectReview as kubectl's `pkg/cmd/auth/whoami.go` prints it
//! (table, `-o json|yaml`).

use k8s_openapi::api::authentication::v1::{SelfSubjectReview, UserInfo};
use serde_json::{Map, Value};

use super::go_text::{go_list, go_tabwriter};
use crate::cli::{WhoamiArgs, WhoamiFormat};
use crate::guard::{Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// kubectl's `auth whoami` table: ATTRIBUTE/VALUE, then Username, UID, Groups and one
/// `Extra: KEY` line per extra (sorted), each only when set.
pub fn whoami_table(u: &UserInfo) -> String {
    let mut lines = vec![vec!["ATTRIBUTE".to_string(), "VALUE".to_string()]];
    if let Some(n) = u.username.as_ref().filter(|x| !x.is_empty()) {
        lines.push(vec!["Username".into(), n.clone()]);
    }
    if let Some(n) = u.uid.as_ref().filter(|x| !x.is_empty()) {
        lines.push(vec!["UID".into(), n.clone()]);
    }
    if let Some(g) = u.groups.as_ref().filter(|x| !x.is_empty()) {
        lines.push(vec!["Groups".into(), go_list(g)]);
    }
    for (k, v) in u.extra.iter().flatten() {
        lines.push(vec![format!("Extra: {k}"), go_list(v)]);
    }
    go_tabwriter(&lines)
}

/// The review as kubectl's JSON printer writes a typed object: Go struct field order (`kind`,
/// `apiVersion`, `metadata`, `status.userInfo` with `username`, `uid`, `groups`, `extra`),
/// empty fields left out.
///
/// # Errors
/// [`crate::output::OutputError`] if a part cannot be serialized.
pub fn whoami_value(r: &SelfSubjectReview) -> Result<Value, crate::output::OutputError> {
    let enc = |e: serde_json::Error| crate::output::OutputError::Encode(e.to_string());
    let mut top = Map::new();
    top.insert("kind".into(), "SelfSubjectReview".into());
    top.insert("apiVersion".into(), "authentication.k8s.io/v1".into());
    let mut meta = serde_json::to_value(&r.metadata).map_err(enc)?;
    if let Some(m) = meta.as_object_mut()
        && !m.contains_key("creationTimestamp")
    {
        m.insert("creationTimestamp".into(), Value::Null);
    }
    top.insert("metadata".into(), meta);
    let mut ui = Map::new();
    if let Some(u) = r.status.as_ref().and_then(|s| s.user_info.as_ref()) {
        if let Some(n) = u.username.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("username".into(), n.clone().into());
        }
        if let Some(n) = u.uid.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("uid".into(), n.clone().into());
        }
        if let Some(g) = u.groups.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("groups".into(), serde_json::to_value(g).map_err(enc)?);
        }
        if let Some(x) = u.extra.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("extra".into(), serde_json::to_value(x).map_err(enc)?);
        }
    }
    let mut status = Map::new();
    status.insert("userInfo".into(), Value::Object(ui));
    top.insert("status".into(), Value::Object(status));
    Ok(Value::Object(top))
}

/// `v` with every object's keys sorted (kubectl's YAML printer goes through JSON →
/// sigs.k8s.io/yaml, which sorts keys).
pub fn sorted_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted_keys(&m[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

pub(super) async fn whoami(
    s: &Settings,
    a: &WhoamiArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let session = Session::open(s, p, Purpose::Read).await?;
    let review = session.self_review().await?;
    let text = match a.output {
        None => whoami_table(
            &review
                .status
                .as_ref()
                .and_then(|st| st.user_info.clone())
                .unwrap_or_default(),
        ),
        Some(WhoamiFormat::Json) => crate::output::to_json(&whoami_value(review)?)?,
        Some(WhoamiFormat::Yaml) => crate::output::to_yaml(&sorted_keys(&whoami_value(review)?))?,
    };
    p.out(&text)?;
    Ok(())
}
