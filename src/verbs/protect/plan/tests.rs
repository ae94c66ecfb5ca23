use std::time::Duration;

use super::*;
use crate::rules::protect::{DEFAULT_MAX_LIFT, ProtectMode, ProtectRule};

fn rule(
    contexts: &[&str],
    namespaces: Option<&[&str]>,
    mode: ProtectMode,
    max: u64,
) -> ProtectRule {
    ProtectRule {
        contexts: contexts.iter().map(|s| s.to_string()).collect(),
        servers: Vec::new(),
        namespaces: namespaces.map(|n| n.iter().map(|s| s.to_string()).collect()),
        verbs: None,
        mode,
        require_reason: false,
        message: None,
        max_lift: Duration::from_secs(max),
    }
}

fn lift(id: &str, context: &str, ns: Option<&str>, until: i64) -> Lift {
    Lift {
        id: id.into(),
        context: context.into(),
        server: "https://s".into(),
        namespace: ns.map(str::to_string),
        granted: jiff::Timestamp::from_second(1000).unwrap(),
        until: jiff::Timestamp::from_second(until).unwrap(),
        reason: None,
    }
}

const S: &str = "https://s";

#[test]
fn the_limit_is_the_shortest_max_lift_of_the_rules_that_can_hold_there() {
    let rules = vec![
        rule(&["prod*"], None, ProtectMode::Confirm, 3600),
        rule(&["prod"], Some(&["shop"]), ProtectMode::TypeName, 900),
        rule(&["staging"], None, ProtectMode::Confirm, 60),
    ];
    // The whole context: every rule of the context, namespaced or not.
    assert_eq!(
        lift_limit(&rules, Some("prod"), S, None),
        Ok(Duration::from_secs(900))
    );
    // A namespace the second rule does not name: only the first.
    assert_eq!(
        lift_limit(&rules, Some("prod"), S, Some("web")),
        Ok(Duration::from_secs(3600))
    );
    assert_eq!(
        lift_limit(&rules, Some("prod"), S, Some("shop")),
        Ok(Duration::from_secs(900))
    );
    assert_eq!(
        lift_limit(&rules, Some("dev"), S, None),
        Err(NoLift::NoRule)
    );
    assert_eq!(lift_limit(&rules, None, S, None), Err(NoLift::NoRule));
}

#[test]
fn block_is_never_lifted_and_its_max_lift_does_not_shorten_a_lift() {
    let rules = vec![
        rule(&["prod"], Some(&["kube-system"]), ProtectMode::Block, 60),
        rule(&["prod"], None, ProtectMode::Confirm, 1800),
    ];
    // The whole context: kube-system stays blocked, the rest can be lifted.
    assert_eq!(
        lift_limit(&rules, Some("prod"), S, None),
        Ok(Duration::from_secs(1800))
    );
    assert_eq!(
        lift_limit(&rules, Some("prod"), S, Some("shop")),
        Ok(Duration::from_secs(1800))
    );
    // kube-system alone: block wins over confirm there, so nothing could be lifted.
    assert_eq!(
        lift_limit(&rules, Some("prod"), S, Some("kube-system")),
        Err(NoLift::OnlyBlock(vec![0]))
    );
    // A block of some verbs leaves the others to lift.
    let mut deletes = rule(&["prod"], None, ProtectMode::Block, 60);
    deletes.verbs = Some(vec![crate::rules::protect::ProtectVerb::Delete]);
    let partial = vec![deletes, rule(&["prod"], None, ProtectMode::Confirm, 1800)];
    assert_eq!(
        lift_limit(&partial, Some("prod"), S, None),
        Ok(Duration::from_secs(1800))
    );
    let only_block = vec![rule(&["prod"], None, ProtectMode::Block, 60)];
    assert_eq!(
        lift_limit(&only_block, Some("prod"), S, None),
        Err(NoLift::OnlyBlock(vec![0]))
    );
}

#[test]
fn a_rule_by_server_holds_for_a_renamed_context() {
    let mut r = rule(&[], None, ProtectMode::Confirm, DEFAULT_MAX_LIFT.as_secs());
    r.servers = vec!["https://s*".into()];
    assert_eq!(
        holding(std::slice::from_ref(&r), Some("renamed"), S).len(),
        1
    );
    assert!(holding(&[r], Some("renamed"), "https://other").is_empty());
}

#[test]
fn a_new_lift_replaces_the_one_of_its_context_and_namespace_and_drops_ended_ones() {
    let now = jiff::Timestamp::from_second(2000).unwrap();
    let stored = vec![
        lift("a", "prod", None, 3000),
        lift("b", "prod", Some("shop"), 3000),
        lift("c", "dev", None, 1500),
        lift("d", "dev", Some("x"), 3000),
    ];
    let out = with_lift(stored, lift("e", "prod", None, 4000), now);
    let ids: Vec<&str> = out.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["b", "d", "e"]);
}

#[test]
fn end_without_a_namespace_ends_every_lift_of_the_context() {
    let now = jiff::Timestamp::from_second(2000).unwrap();
    let stored = vec![
        lift("a", "prod", None, 3000),
        lift("b", "prod", Some("shop"), 3000),
        lift("c", "prod", Some("web"), 1500),
        lift("d", "dev", None, 3000),
    ];
    let (kept, ended) = without_lifts(stored.clone(), "prod", None, now);
    assert_eq!(
        kept.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        ["d"]
    );
    assert_eq!(
        ended.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    let (kept, ended) = without_lifts(stored, "prod", Some("shop"), now);
    assert_eq!(
        kept.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        ["a", "d"]
    );
    assert_eq!(
        ended.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        ["b"]
    );
}

#[test]
fn status_ignores_a_lift_of_another_server_one_too_long_and_one_lifting_nothing() {
    let now = jiff::Timestamp::from_second(2000).unwrap();
    let rules = vec![rule(&["prod"], None, ProtectMode::Confirm, 1800)];
    assert_eq!(
        judge(&lift("a", "prod", None, 2500), &rules, "prod", S, now),
        Judged::InForce
    );
    assert_eq!(
        judge(&lift("a", "prod", None, 1900), &rules, "prod", S, now),
        Judged::Ended
    );
    let mut moved = lift("a", "prod", None, 2500);
    moved.server = "https://old".into();
    assert!(
        matches!(judge(&moved, &rules, "prod", S, now), Judged::Ignored(w) if w.contains("https://old"))
    );
    // Granted at 1000, until 1000 + 1801 s: longer than maxLift.
    assert!(
        matches!(judge(&lift("a", "prod", None, 2801), &rules, "prod", S, now), Judged::Ignored(w) if w.contains("maxLift"))
    );
    assert!(
        matches!(judge(&lift("a", "prod", None, 2500), &[], "prod", S, now), Judged::Ignored(w) if w.contains("lifts nothing"))
    );
}

#[test]
fn a_lift_needs_a_reason_where_a_liftable_rule_requires_one() {
    let mut asks = rule(&["prod"], Some(&["shop"]), ProtectMode::Confirm, 600);
    asks.require_reason = true;
    let mut blocks = rule(&["prod"], None, ProtectMode::Block, 600);
    blocks.require_reason = true;
    blocks.namespaces = Some(vec!["kube-system".into()]);
    let rules = vec![
        rule(&["prod"], None, ProtectMode::Confirm, 600),
        asks,
        blocks,
    ];
    assert_eq!(reasons_required(&rules, Some("prod"), S, None), [1]);
    assert_eq!(reasons_required(&rules, Some("prod"), S, Some("shop")), [1]);
    assert!(reasons_required(&rules, Some("prod"), S, Some("web")).is_empty());
    assert!(reasons_required(&rules, Some("dev"), S, None).is_empty());
}
