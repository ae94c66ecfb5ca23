//! Unit tests of the election rules: timings, acquiring, renewing, respecting another
//! holder, conflicts, release and when the next round starts.

use super::*;

fn wall(s: i64) -> Timestamp {
    Timestamp::from_second(1_700_000_000 + s).unwrap()
}

fn quick() -> Timing {
    Timing::new(
        Duration::from_secs(4),
        Duration::from_secs(3),
        Duration::from_secs(1),
    )
    .unwrap()
}

fn held_by(holder: &str, rv: &str, transitions: i32) -> Seen {
    Seen {
        record: Record {
            holder: holder.into(),
            lease_duration_seconds: 4,
            acquire_time: Some(wall(0)),
            renew_time: Some(wall(0)),
            transitions,
        },
        resource_version: rv.into(),
    }
}

#[test]
fn timing_defaults_are_client_gos_and_bad_timings_are_refused() {
    let d = Timing::default();
    assert_eq!(
        (d.lease_duration(), d.renew_deadline(), d.retry_period()),
        (
            Duration::from_secs(15),
            Duration::from_secs(10),
            Duration::from_secs(2)
        )
    );
    assert_eq!(
        Timing::new(LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD),
        Ok(d)
    );
    let s = Duration::from_secs;
    assert_eq!(
        Timing::new(
            Duration::from_millis(1500),
            s(1),
            Duration::from_millis(100)
        ),
        Err(TimingError::LeaseNotWholeSeconds(Duration::from_millis(
            1500
        )))
    );
    assert_eq!(
        Timing::new(s(10), s(10), s(2)),
        Err(TimingError::RenewNotShorter {
            lease: s(10),
            renew: s(10)
        })
    );
    // 1.2 × 5 s = 6 s: a 6 s deadline is refused, as client-go refuses it.
    assert_eq!(
        Timing::new(s(15), s(6), s(5)),
        Err(TimingError::RetryTooLong {
            renew: s(6),
            retry: s(5)
        })
    );
    assert_eq!(Timing::new(s(15), s(0), s(2)), Err(TimingError::Zero));
}

#[test]
fn no_lease_is_created_held_by_us_with_zero_transitions() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    assert_eq!(e.fast_path(t0, wall(0)), None);
    e.observe(None, t0);
    let Step::Create(r) = e.decide(t0, wall(5)) else {
        panic!("expected a create")
    };
    assert_eq!(
        r,
        Record {
            holder: "me".into(),
            lease_duration_seconds: 4,
            acquire_time: Some(wall(5)),
            renew_time: Some(wall(5)),
            transitions: 0
        }
    );
    assert!(!e.leading_at(t0));
    e.written(r, "10".into(), t0, t0 + Duration::from_millis(20));
    assert!(e.is_leader());
    assert_eq!(e.leading_until(), Some(t0 + Duration::from_secs(3)));
    assert!(e.leading_at(t0 + Duration::from_millis(2999)));
    assert!(!e.leading_at(t0 + Duration::from_secs(3)));
}

#[test]
fn a_leader_renews_on_the_fast_path_keeping_acquire_time_and_transitions() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    let mine = Record {
        holder: "me".into(),
        lease_duration_seconds: 4,
        acquire_time: Some(wall(0)),
        renew_time: Some(wall(0)),
        transitions: 7,
    };
    e.written(mine, "10".into(), t0, t0);
    let t1 = t0 + Duration::from_secs(1);
    let step = e.fast_path(t1, wall(1)).expect("fast path");
    assert_eq!(
        step,
        Step::Replace {
            record: Record {
                holder: "me".into(),
                lease_duration_seconds: 4,
                acquire_time: Some(wall(0)),
                renew_time: Some(wall(1)),
                transitions: 7
            },
            resource_version: "10".into()
        }
    );
    // The slow path decides the same renewal from the record read back.
    e.observe(Some(held_by("me", "10", 7)), t1);
    let Step::Replace { record, .. } = e.decide(t1, wall(1)) else {
        panic!("expected a renewal")
    };
    assert_eq!(
        (record.transitions, record.acquire_time),
        (7, Some(wall(0)))
    );
    // No fast path once the lease is no longer valid on our own clock.
    assert_eq!(e.fast_path(t0 + Duration::from_secs(5), wall(5)), None);
}

#[test]
fn a_valid_lease_of_another_is_respected_until_it_expires_on_the_local_clock() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    e.observe(Some(held_by("other", "5", 2)), t0);
    // The holder's renewTime (wall clock) plays no part: only when we saw it.
    assert_eq!(
        e.decide(t0 + Duration::from_millis(3999), wall(1000)),
        Step::Follow {
            holder: "other".into()
        }
    );
    // Seeing the same record again does not restart the clock.
    e.observe(Some(held_by("other", "5", 2)), t0 + Duration::from_secs(2));
    let late = t0 + Duration::from_millis(4001);
    let Step::Replace {
        record,
        resource_version,
    } = e.decide(late, wall(9))
    else {
        panic!("expected a takeover")
    };
    assert_eq!(resource_version, "5");
    assert_eq!(
        record,
        Record {
            holder: "me".into(),
            lease_duration_seconds: 4,
            acquire_time: Some(wall(9)),
            renew_time: Some(wall(9)),
            transitions: 3
        }
    );
    assert!(
        !e.leading_at(late),
        "not the leader before the write succeeds"
    );
}

#[test]
fn a_renewal_seen_by_a_follower_restarts_its_expiry_clock() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    e.observe(Some(held_by("other", "5", 2)), t0);
    let mut renewed = held_by("other", "6", 2);
    renewed.record.renew_time = Some(wall(3));
    let t3 = t0 + Duration::from_secs(3);
    e.observe(Some(renewed), t3);
    assert!(matches!(
        e.decide(t0 + Duration::from_secs(5), wall(5)),
        Step::Follow { .. }
    ));
    assert!(matches!(
        e.decide(t3 + Duration::from_millis(4001), wall(8)),
        Step::Replace { .. }
    ));
}

#[test]
fn a_released_lease_is_taken_at_once() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    let mut free = held_by("", "8", 4);
    free.record.lease_duration_seconds = 1;
    e.observe(Some(free), t0);
    let Step::Replace { record, .. } = e.decide(t0, wall(0)) else {
        panic!("expected a takeover of a released lease")
    };
    assert_eq!((record.holder.as_str(), record.transitions), ("me", 5));
}

#[test]
fn a_conflict_leaves_the_loser_following_the_winner_it_reads_next() {
    // Two candidates saw the same expired lease at resourceVersion 5 and both replace with
    // that fence; the server takes one. The loser's 409 changes nothing in its core
    // (no `written`), so it is not the leader; its next read shows the winner.
    let t0 = Instant::now();
    let mut a = Elector::new("a", quick());
    let mut b = Elector::new("b", quick());
    for e in [&mut a, &mut b] {
        e.observe(Some(held_by("dead", "5", 1)), t0);
    }
    let late = t0 + Duration::from_secs(5);
    let (Step::Replace { record: ra, .. }, Step::Replace { record: rb, .. }) =
        (a.decide(late, wall(5)), b.decide(late, wall(5)))
    else {
        panic!("both try to take over")
    };
    assert_eq!((ra.transitions, rb.transitions), (2, 2));
    a.written(ra.clone(), "6".into(), late, late);
    // b got 409 Conflict: nothing recorded; it reads the Lease again.
    assert!(!b.leading_at(late));
    b.observe(
        Some(Seen {
            record: ra,
            resource_version: "6".into(),
        }),
        late,
    );
    assert_eq!(b.decide(late, wall(5)), Step::Follow { holder: "a".into() });
    assert!(a.leading_at(late) && !b.leading_at(late));
}

#[test]
fn a_leader_that_sees_another_holder_stops_leading_at_once() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    e.written(held_by("me", "5", 0).record, "5".into(), t0, t0);
    assert!(e.leading_at(t0));
    e.observe(
        Some(held_by("thief", "9", 1)),
        t0 + Duration::from_millis(10),
    );
    assert_eq!(e.leading_until(), None);
    assert!(!e.leading_at(t0 + Duration::from_millis(10)));
}

#[test]
fn release_clears_the_holder_keeps_transitions_and_only_the_leader_releases() {
    let t0 = Instant::now();
    let mut e = Elector::new("me", quick());
    assert_eq!(e.release(wall(0)), None);
    e.written(held_by("me", "5", 3).record, "5".into(), t0, t0);
    assert_eq!(
        e.release(wall(2)),
        Some(Step::Replace {
            record: Record {
                holder: String::new(),
                lease_duration_seconds: 1,
                acquire_time: Some(wall(2)),
                renew_time: Some(wall(2)),
                transitions: 3
            },
            resource_version: "5".into()
        })
    );
    e.released();
    assert!(!e.is_leader() && e.leading_until().is_none());
}

#[test]
fn followers_wake_at_expiry_and_leaders_every_retry_period() {
    let t0 = Instant::now();
    let mut f = Elector::new("me", quick());
    f.observe(Some(held_by("other", "5", 0)), t0);
    let t3500 = t0 + Duration::from_millis(3500);
    assert_eq!(
        f.next_round(t3500),
        t0 + Duration::from_secs(4) + Duration::from_millis(1)
    );
    assert_eq!(f.next_round(t0), t0 + Duration::from_secs(1));
    let mut l = Elector::new("me", quick());
    l.written(held_by("me", "5", 0).record, "5".into(), t0, t0);
    assert_eq!(l.next_round(t3500), t3500 + Duration::from_secs(1));
}

#[test]
fn record_round_trips_through_the_lease_spec() {
    let r = held_by("me", "1", 3).record;
    assert_eq!(Record::from_spec(Some(&r.to_spec())), r);
    assert_eq!(Record::from_spec(None), Record::default());
    let spec = Record::default().to_spec();
    assert_eq!(spec.holder_identity.as_deref(), Some(""));
}
