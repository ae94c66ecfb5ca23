//! Unit tests of the Lease side: what the watcher is told on each change of leadership,
//! readiness, the identity and the hint for a missing namespace.

use super::*;

fn at(now: Instant, leading_for: Option<u64>, term: u64, holder: &str) -> Leadership {
    Leadership {
        identity: "me".into(),
        leading_until: leading_for.map(|s| now + Duration::from_secs(s)),
        term,
        holder: Some(holder.into()),
        last_seen: Some(now),
        lease_duration: Duration::from_secs(4),
        error: None,
    }
}

#[test]
fn the_watcher_sees_each_gain_loss_and_new_holder_once() {
    let now = Instant::now();
    let mut o = Observer::default();
    assert_eq!(
        o.update(&at(now, None, 0, "a"), now),
        vec![Change::Following("a".into())]
    );
    assert_eq!(o.update(&at(now, None, 0, "a"), now), vec![]);
    assert_eq!(
        o.update(&at(now, Some(3), 1, "me"), now),
        vec![Change::BecameLeader]
    );
    assert!(o.leading());
    assert_eq!(o.update(&at(now, Some(3), 1, "me"), now), vec![]);
    // The renew deadline ran out with no new round published: lost, on the clock alone.
    let later = now + Duration::from_secs(3);
    assert_eq!(
        o.update(&at(now, Some(3), 1, "me"), later),
        vec![Change::LostLease]
    );
    assert_eq!(
        o.update(&at(later, None, 1, "b"), later),
        vec![Change::Following("b".into())]
    );
    // Lost and won again between two looks: both are reported (full reconcile follows).
    let mut o = Observer::default();
    o.update(&at(now, Some(3), 1, "me"), now);
    assert_eq!(
        o.update(&at(now, Some(3), 2, "me"), now),
        vec![Change::LostLease, Change::BecameLeader]
    );
    // A failing round is reported once per reason.
    let mut failing = at(now, None, 2, "b");
    failing.error = Some("cannot reach".into());
    let changes = o.update(&failing, now);
    assert_eq!(
        changes,
        vec![
            Change::LostLease,
            Change::RoundFailed("cannot reach".into()),
            Change::Following("b".into())
        ]
    );
    assert_eq!(o.update(&failing, now), vec![]);
}

#[test]
fn readiness_is_leading_or_a_recent_look_at_the_lease() {
    let now = Instant::now();
    let mut l = at(now, None, 0, "a");
    assert!(l.ready(now + Duration::from_millis(3999)));
    assert!(!l.ready(now + Duration::from_secs(4)));
    l.last_seen = None;
    assert!(!l.ready(now));
    l.leading_until = Some(now + Duration::from_secs(1));
    assert!(l.ready(now) && !l.ready(now + Duration::from_secs(1)));
}

#[test]
fn identity_is_host_and_session() {
    let id = identity("0123abcd");
    assert!(
        id.ends_with("_0123abcd") && id.len() > "_0123abcd".len(),
        "{id}"
    );
}

#[test]
fn a_lease_namespace_that_does_not_exist_says_how_to_fix_it() {
    let missing = crate::cluster::ApiError::Server {
        code: 404,
        reason: "NotFound".into(),
        message: "namespaces \"crd-loader\" not found".into(),
    };
    assert_eq!(
        with_hint(&missing, "crd-loader"),
        "Error from server (NotFound): namespaces \"crd-loader\" not found; create the namespace crd-loader (kubectl create namespace crd-loader) or pass --lease-namespace with an existing one"
    );
    let other = crate::cluster::ApiError::Server {
        code: 500,
        reason: "InternalError".into(),
        message: "boom".into(),
    };
    assert_eq!(
        with_hint(&other, "x"),
        "Error from server (InternalError): boom"
    );
}
