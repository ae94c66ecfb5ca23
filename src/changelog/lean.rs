//! Reading a record without its object states: the lean parse that `changelog list`,
//! `verify`'s neighbours and `drift` use to walk the whole log in bounded memory.
//!
//! A record's `before`, `after` and `patch` are most of its bytes (whole objects); the list
//! prints none of them. [`judge_lean`] reads a line as an [`Entry`] whose three states are
//! `None`, and judges the line exactly as the whole parse ([`super::judge`]) does: the states
//! are still checked to be JSON values as `serde_json::Value` would read them (same nesting
//! limit, same number range, same string escapes, so the same lines are valid and the same
//! reasons given), only nothing is kept of them.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::model::{Entry, Operation};
use super::parse::{Record, judge_as};

/// A JSON value read and checked as [`serde_json::Value`] reads one, and dropped: every
/// scalar, array and object goes through `deserialize_any` as `Value`'s does, so the parser
/// applies the same checks (nesting depth, number range, escapes), but nothing is allocated.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Checked, D::Error> {
        d.deserialize_any(CheckedVisitor)
    }
}

/// The visitor of [`Checked`]: accepts what `Value`'s visitor accepts.
struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_string<E>(self, _: String) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_none<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Checked, D::Error> {
        Checked::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_entry::<Checked, Checked>()?.is_some() {}
        Ok(Checked)
    }
}

/// A record as [`Entry`] declares it, but with the object states [`Checked`] and dropped.
/// Keep in step with [`Entry`]: the test below judges the same lines with both.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Lean {
    id: String,
    #[serde(default)]
    format_version: Option<u32>,
    #[serde(default)]
    session: String,
    timestamp: String,
    plugin: String,
    user: String,
    context: Option<String>,
    server: String,
    api_version: String,
    kind: String,
    namespace: Option<String>,
    name: String,
    uid: Option<String>,
    operation: Operation,
    patch_type: Option<String>,
    patch: Option<Checked>,
    dry_run: bool,
    before: Option<Checked>,
    #[serde(default)]
    after: Option<Checked>,
    #[serde(default)]
    reconciler: Option<crate::rules::reconciler::Reconciler>,
    #[serde(default)]
    parent: Option<String>,
    resource_version_after: Option<String>,
    #[serde(default)]
    reconciled: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    protection: Option<String>,
    #[serde(default)]
    audit_id: Option<String>,
    #[serde(default)]
    actor: Option<String>,
    result: String,
    duration_seconds: f64,
}

impl Record for Lean {
    fn id(&self) -> &str {
        &self.id
    }
}

/// Reads one line as [`super::judge`] does, but without the object states: the [`Entry`]
/// has `patch`, `before` and `after` set to `None` whatever the line holds. The same lines
/// are valid, with the same reasons.
///
/// # Errors
/// The reason the line is not a valid record ([`super::judge`]).
pub(crate) fn judge_lean(raw: &[u8], unterminated: bool) -> Result<Entry, String> {
    let l: Lean = judge_as(raw, unterminated)?;
    let _ = (l.patch, l.before, l.after);
    Ok(Entry {
        id: l.id,
        format_version: l.format_version,
        session: l.session,
        timestamp: l.timestamp,
        plugin: l.plugin,
        user: l.user,
        context: l.context,
        server: l.server,
        api_version: l.api_version,
        kind: l.kind,
        namespace: l.namespace,
        name: l.name,
        uid: l.uid,
        operation: l.operation,
        patch_type: l.patch_type,
        patch: None,
        dry_run: l.dry_run,
        before: None,
        after: None,
        reconciler: l.reconciler,
        parent: l.parent,
        resource_version_after: l.resource_version_after,
        reconciled: l.reconciled,
        reason: l.reason,
        protection: l.protection,
        audit_id: l.audit_id,
        actor: l.actor,
        result: l.result,
        duration_seconds: l.duration_seconds,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::changelog::judge;
    use crate::changelog::model::sample_entry;

    /// What the whole parse makes of a line, with its states dropped.
    fn whole(raw: &[u8], unterminated: bool) -> Result<Entry, String> {
        judge(raw, unterminated).map(|e| Entry {
            patch: None,
            before: None,
            after: None,
            ..e
        })
    }

    #[test]
    fn the_lean_parse_judges_every_line_as_the_whole_parse_does() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let mut e = sample_entry("web");
        e.before = Some(json!({"a": [1, 2.5, "x\u{e9}\\n", null, true, {"b": {}}]}));
        e.after = Some(json!({"spec": {"replicas": 3}}));
        e.patch = Some(json!([{"op": "add"}]));
        e.reason = Some("why".into());
        let good = serde_json::to_string(&e).unwrap();
        let mut lines: Vec<String> = vec![
            good.clone(),
            good.replace(
                "\"before\":{",
                &format!("\"before\":{},\"x\":{{", deep(120)),
            ),
            good.replace(
                "\"before\":{",
                &format!("\"before\":{},\"x\":{{", deep(10_001)),
            ),
            good.replace(
                "\"before\":{",
                &format!("\"before\":{},\"x\":{{", deep(200)),
            ),
            good.replace("\"before\":{", "\"before\":1e400,\"x\":{"),
            good.replace("\"before\":{", "\"before\":\"\\ud800\",\"x\":{"),
            good.replace("\"before\":{", "\"before\":\"\\q\",\"x\":{"),
            good.replace("\"before\":{", "\"before\":{\"a\":1,\"a\":2},\"x\":{"),
            good.replace("\"after\":{", "\"after\":null,\"y\":{"),
            good.replace("\"dryRun\":false", "\"dryRun\":1"),
            good.replace(",\"before\":", ",\"before\":1,\"before\":"),
            good.replace("\"plugin\":\"myops\",", ""),
            good[..good.len() / 2].to_string(),
        ];
        // The fuzz test's mutations of a record with states.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for round in 0..3000 {
            let mut b = good.as_bytes().to_vec();
            super::super::parse::mutate(&mut b, &mut seed, round % 5 + 1, 0x7f);
            lines.push(String::from_utf8_lossy(&b).into_owned());
        }
        let mut valid = 0;
        for (i, l) in lines.iter().enumerate() {
            for unterminated in [false, true] {
                let (lean, all) = (
                    judge_lean(l.as_bytes(), unterminated),
                    whole(l.as_bytes(), unterminated),
                );
                assert_eq!(lean, all, "line {i}: {l}");
                valid += usize::from(all.is_ok());
            }
        }
        assert!(valid >= 8, "the corpus holds valid records too ({valid})");
        assert!(whole(lines[2].as_bytes(), false).is_err(), "nesting limit");
        // Objects as deep as the API server stores them (past serde_json's default 128).
        assert!(whole(lines[3].as_bytes(), false).is_ok(), "200 levels");
        assert!(whole(lines[4].as_bytes(), false).is_err(), "number range");
    }
}
