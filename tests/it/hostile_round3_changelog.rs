//! Third bad-input pass: `changelog verify` over a tampered, torn or hostile chain,
//! `changelog reconcile` over ids and outcomes that are wrong, and `drift` asked the
//! wrong things. Each journal is a real one (made by a patch in the case's setup), then
//! damaged.

use std::path::PathBuf;

use crate::fixture::{Myops, Namespace, kubectl};
use crate::hostile::{Case, run_cases};
use crate::hostile_round3::{configmap, home_of, mkfifo, no_raw_escape};

fn journal(m: &Myops) -> PathBuf {
    home_of(m).join("changelog.jsonl")
}

fn head(m: &Myops) -> PathBuf {
    home_of(m).join("changelog.head")
}

/// Two successful patches of ConfigMap `name` in `ns` by the case's own user: 4 records.
fn two_patches(m: &Myops, ns: &str, name: &str) {
    for v in ["one", "two"] {
        let r = m.merge_patch(
            ns,
            "configmap",
            name,
            &format!("{{\"data\":{{\"k\":\"{v}\"}}}}"),
        );
        assert_eq!(r.code, 0, "setup patch: {r:?}");
    }
}

/// A `verify` case over a real two-patch journal that `damage` then changes.
fn verify(
    name: &str,
    ns: &str,
    cm: &str,
    needle: &str,
    damage: impl Fn(&Myops) + Send + Sync + 'static,
) -> Case {
    let (ns, cm) = (ns.to_string(), cm.to_string());
    Case::new(name, 1)
        .args(&["changelog", "verify"])
        .stderr_has(needle)
        .setup(move |m| {
            two_patches(m, &ns, &cm);
            damage(m);
        })
}

/// Replaces `from` by `to` in line `index` of the journal.
fn edit_line(m: &Myops, index: usize, from: &str, to: &str) {
    let text = std::fs::read_to_string(journal(m)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(lines[index].contains(from), "{}", lines[index]);
    lines[index] = lines[index].replacen(from, to, 1);
    std::fs::write(journal(m), lines.join("\n") + "\n").unwrap();
}

fn verify_cases(n: &str) -> Vec<Case> {
    vec![
        verify(
            "verify_head_of_garbage_passes_a_chain",
            n,
            "v1",
            "changelog.head",
            |m| {
                std::fs::write(head(m), "\u{1b}[2J not a hash\n").unwrap();
            },
        )
        .after(no_raw_escape),
        verify("verify_head_a_fifo_hangs", n, "v2", "changelog.head", |m| {
            std::fs::remove_file(head(m)).unwrap();
            mkfifo(&head(m));
        })
        .deadline(std::time::Duration::from_secs(15)),
        verify(
            "verify_head_of_10_mb_is_read_whole",
            n,
            "v3",
            "changelog.head",
            |m| {
                std::fs::write(head(m), "a".repeat(10 << 20)).unwrap();
            },
        )
        .deadline(std::time::Duration::from_secs(15)),
        verify("verify_edited_user_field_passes", n, "v4", "edited", |m| {
            edit_line(m, 1, "\"result\":\"success\"", "\"result\":\"failed!\"");
        }),
        verify(
            "verify_last_two_records_cut_off_passes",
            n,
            "v5",
            "removed",
            |m| {
                let text = std::fs::read_to_string(journal(m)).unwrap();
                let keep: Vec<&str> = text.lines().take(2).collect();
                std::fs::write(journal(m), keep.join("\n") + "\n").unwrap();
            },
        ),
        verify(
            "verify_binary_line_is_skipped_not_a_break",
            n,
            "v6",
            "not a valid record",
            |m| {
                let mut b = std::fs::read(journal(m)).unwrap();
                b.extend_from_slice(b"\xff\xfe\x00\x1b[2J garbage\n");
                std::fs::write(journal(m), b).unwrap();
            },
        )
        .after(no_raw_escape),
        verify(
            "verify_swapped_records_pass",
            n,
            "v7",
            "does not chain",
            |m| {
                let text = std::fs::read_to_string(journal(m)).unwrap();
                let mut lines: Vec<&str> = text.lines().collect();
                lines.swap(1, 2);
                std::fs::write(journal(m), lines.join("\n") + "\n").unwrap();
            },
        ),
        verify(
            "verify_rotated_file_a_fifo_hangs",
            n,
            "v8",
            "changelog.jsonl.1",
            |m| {
                mkfifo(&home_of(m).join("changelog.jsonl.1"));
            },
        )
        .deadline(std::time::Duration::from_secs(15)),
        Case::new("verify_journal_a_directory_says_intact", 1)
            .args(&["changelog", "verify"])
            .stderr_has("changelog.jsonl")
            .setup(|m| std::fs::create_dir_all(journal(m)).unwrap()),
    ]
}

fn reconcile_cases(n: &str) -> Vec<Case> {
    let pending = |cm: &str| {
        let (ns, cm) = (n.to_string(), cm.to_string());
        move |m: &mut Myops| {
            let id = m.killed_at(
                "after-intent",
                &[
                    "patch",
                    "configmap",
                    &cm,
                    "-n",
                    &ns,
                    "--type",
                    "merge",
                    "-p",
                    "{\"data\":{\"k\":\"new\"}}",
                ],
            );
            m.set_env("ID", &id);
        }
    };
    vec![
        Case::new("reconcile_unknown_id_says_nothing_to_do", 4)
            .args(&["changelog", "reconcile", "1a2b3c4d5e6-dead-0"])
            .stderr_has("1a2b3c4d5e6-dead-0"),
        Case::new("reconcile_id_with_escape_sequences_reaches_the_terminal", 4)
            .args(&["changelog", "reconcile", "x\u{1b}]0;pwned\u{7}\u{1b}[2J"])
            .after(no_raw_escape),
        Case::new("reconcile_100k_character_id_is_echoed_whole", 4)
            .args_owned(vec![
                "changelog".into(),
                "reconcile".into(),
                "z".repeat(100_000),
            ])
            .after(|_m, r| {
                if r.stderr.len() > 1000 {
                    Err(format!("{} bytes on stderr", r.stderr.len()))
                } else {
                    Ok(())
                }
            }),
        Case::new("reconcile_outcome_without_an_id_decides_every_entry", 2)
            .args(&["changelog", "reconcile", "--outcome", "applied"])
            .stderr_has("--outcome"),
        Case::new("reconcile_outcome_of_garbage_is_taken_as_applied", 2)
            .args(&[
                "changelog",
                "reconcile",
                "1a2b3c4d5e6-dead-0",
                "--outcome",
                "maybe",
            ])
            .stderr_has("maybe"),
        Case::new("reconcile_outcome_over_a_recorded_success_overwrites_it", 0)
            .args(&[
                "changelog",
                "reconcile",
                "{env:ID}",
                "--outcome",
                "not-applied",
            ])
            .setup({
                let ns = n.to_string();
                move |m| {
                    two_patches(m, &ns, "r1");
                    let id = m.latest_records()[0]["id"].as_str().unwrap().to_string();
                    m.set_env("ID", &id);
                }
            })
            .after(|m, r| {
                if !r.stdout.contains("nothing to reconcile") {
                    return Err(format!("stdout lacks `nothing to reconcile`: {}", r.stdout));
                }
                let last = m.latest_records()[0]["result"].clone();
                if last == "success" {
                    Ok(())
                } else {
                    Err(format!("the recorded outcome became {last}"))
                }
            }),
        Case::new("reconcile_pending_entry_of_a_deleted_object_is_guessed", 5)
            .args(&["changelog", "reconcile", "{env:ID}"])
            .stderr_has("still unknown")
            .setup({
                let (f, ns) = (pending("r2"), n.to_string());
                move |m| {
                    f(m);
                    kubectl(&["delete", "configmap", "r2", "-n", &ns]);
                }
            }),
        Case::new("reconcile_outcome_applied_for_a_dry_run_is_recorded", 2)
            .args(&["changelog", "reconcile", "{env:ID}", "--outcome", "applied"])
            .stderr_has("dry run")
            .setup({
                let ns = n.to_string();
                move |m| {
                    let id = m.killed_at(
                        "after-intent",
                        &[
                            "patch",
                            "configmap",
                            "r3",
                            "-n",
                            &ns,
                            "--type",
                            "merge",
                            "-p",
                            "{\"data\":{\"k\":\"new\"}}",
                            "--dry-run=server",
                        ],
                    );
                    m.set_env("ID", &id);
                }
            }),
        Case::new(
            "reconcile_pending_entry_after_its_context_moved_reads_the_new_server",
            5,
        )
        .stderr_has("the object was not read")
        .args(&[
            "changelog",
            "reconcile",
            "{env:ID}",
            "--request-timeout",
            "2s",
        ])
        .deadline(std::time::Duration::from_secs(20))
        .setup({
            let f = pending("r4");
            move |m| {
                let kc = m.dir.path().join("kubeconfig");
                let text = std::fs::read_to_string(&crate::fixture::cluster().kubeconfig).unwrap();
                std::fs::write(&kc, &text).unwrap();
                m.set_env("KUBECONFIG", &kc.display().to_string());
                f(m);
                let dead = crate::hostile_round3::closed_url().replace("http://", "https://");
                std::fs::write(&kc, text.replace(&crate::hostile::server(), &dead)).unwrap();
            }
        }),
    ]
}

fn drift_cases(n: &str) -> Vec<Case> {
    vec![
        Case::new("drift_with_contexts_runs_one_context", 2)
            .args(&["drift", "--contexts", "admin,alice"])
            .stderr_has("--contexts"),
        Case::new("drift_of_an_unknown_type_lists_everything", 2)
            .args(&["drift", "frobnicators", "-n", n])
            .stderr_has("frobnicators"),
        Case::new("drift_output_format_garbage_prints_a_table", 2)
            .args(&["drift", "-n", n, "-o", "xml"])
            .stderr_has("xml"),
        Case::new("drift_of_an_object_deleted_since_is_in_sync", 6)
            .args(&["drift", "configmaps", "-n", n])
            .answer()
            .stderr_has("1 of 1 object(s) changed")
            .setup({
                let ns = n.to_string();
                move |m| {
                    two_patches(m, &ns, "d1");
                    kubectl(&["delete", "configmap", "d1", "-n", &ns]);
                }
            }),
        Case::new(
            "drift_when_plugin_yaml_no_longer_allows_get_reads_anyway",
            3,
        )
        .args(&["drift", "configmaps", "-n", n])
        .setup({
            let ns = n.to_string();
            move |m| {
                two_patches(m, &ns, "d2");
                let p = m.dir.path().join("plugin.yaml");
                let text = std::fs::read_to_string(&p).unwrap();
                std::fs::write(&p, text.replace("verbs: [get, patch]", "verbs: [patch]")).unwrap();
            }
        }),
        Case::new("drift_as_a_user_rbac_denies_reports_in_sync", 3)
            .args(&["--context", "bob", "drift", "configmaps", "-n", n])
            .setup({
                let ns = n.to_string();
                move |m| two_patches(m, &ns, "d3")
            }),
        Case::new("drift_over_a_journal_of_garbage_fails", 0)
            .args(&["drift", "-n", n])
            .setup(|m| {
                std::fs::create_dir_all(home_of(m)).unwrap();
                std::fs::write(journal(m), "\u{1b}[2J{not json\n\u{0}\u{0}\n[1,2,3]\n").unwrap();
            })
            .after(no_raw_escape),
    ]
}

#[test]
fn hostile_round3_changelog_verify_reconcile_and_drift_fail_cleanly() {
    let ns = Namespace::new("hostile-r3-log");
    let n = ns.0.clone();
    for cm in [
        "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "r1", "r2", "r3", "r4", "d1", "d2", "d3",
    ] {
        configmap(&n, cm, "orig");
    }
    let mut cases = verify_cases(&n);
    cases.extend(reconcile_cases(&n));
    cases.extend(drift_cases(&n));
    run_cases("round3-changelog", cases);
    drop(ns);
}
