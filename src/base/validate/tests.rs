//! The value checks against apimachinery's answers: selectors valid and malformed, over-long
//! values, field managers and namespaces.

use super::*;

#[test]
fn valid_label_selectors_pass_like_labels_parse() {
    for ok in [
        "",
        "app",
        "!app",
        "app=web",
        "app==web",
        "app!=web",
        "tier in (front,back)",
        "x in (foo,,baz),y,z notin ()",
        "example.com/app=web",
        "a>5",
        "a=",
        "in in (in)",
        " app = web , tier ",
    ] {
        assert_eq!(check_label_selector(ok), Ok(()), "{ok:?}");
    }
}

#[test]
fn malformed_label_selectors_get_apimachinery_s_message() {
    let cases = [
        ("a=b=c", "found \"=\", expected: ',' or 'end of string'"),
        (
            "a in (b",
            "unable to parse requirement: found \"\", expected: ',' or ')'",
        ),
        (
            "!!a",
            "unable to parse requirement: found \"!\", expected: identifier",
        ),
        (
            "a b",
            "unable to parse requirement: found \"b\", expected: in, notin, =, ==, !=, gt, lt",
        ),
        ("a,", "found \"\", expected: identifier after ','"),
        ("a>b", "must be an integer"),
        ("a<-3", "a label value must be empty or consist"),
        ("!a=b", "found \"=\", expected: ',' or 'end of string'"),
        ("a=b_", "a label value must be empty or consist"),
        ("/a", "the prefix part before '/' must not be empty"),
        ("a/b/c", "at most one '/'"),
        ("A_/b", "must be a DNS subdomain"),
    ];
    for (bad, want) in cases {
        let e = check_label_selector(bad).unwrap_err();
        assert!(e.starts_with("-l/--selector "), "{bad:?}: {e}");
        assert!(e.contains(want), "{bad:?}: {e}");
    }
}

#[test]
fn a_100000_character_selector_is_refused_with_a_capped_echo() {
    let long = "a".repeat(100_000);
    let e = check_label_selector(&long).unwrap_err();
    assert!(e.contains("no more than 63 bytes (it has 100000)"), "{e}");
    assert!(e.len() < 400, "{} bytes", e.len());
    let e = check_label_selector(&format!("a={long}")).unwrap_err();
    assert!(
        e.contains("a label value must be no more than 63 bytes"),
        "{e}"
    );
    assert!(e.len() < 400, "{} bytes", e.len());
}

#[test]
fn escape_sequences_in_a_selector_are_escaped_in_the_message() {
    let e = check_label_selector("a=\u{1b}[2J").unwrap_err();
    assert!(!e.contains('\u{1b}'), "{e}");
    assert!(e.contains("\\u{1b}"), "{e}");
}

#[test]
fn field_selectors_follow_fields_parse_selector() {
    for ok in [
        "",
        "status.phase=Running",
        "metadata.name==web,spec.nodeName!=",
        "a=x\\,y\\=z\\\\",
        ",,a=b",
    ] {
        assert_eq!(check_field_selector(ok), Ok(()), "{ok:?}");
    }
    let e = check_field_selector("a").unwrap_err();
    assert!(e.contains("can't understand \"a\""), "{e}");
    let e = check_field_selector("a=b=c").unwrap_err();
    assert!(e.contains("unescaped character \"=\""), "{e}");
    let e = check_field_selector("a=b\\x").unwrap_err();
    assert!(e.contains("invalid escape sequence \"\\\\x\""), "{e}");
    let e = check_field_selector("a=b\\").unwrap_err();
    assert!(e.contains("at the end of a value"), "{e}");
}

#[test]
fn selectors_that_cannot_fit_in_a_request_uri_are_refused() {
    let many = format!(
        "a in ({})",
        (0..20_000)
            .map(|i| format!("v{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(check_label_selector(&many), Ok(()), "valid, only too long");
    let e = check_selectors_fit(Some(&many), None).unwrap_err();
    assert!(e.contains("65534 bytes"), "{e}");
    assert_eq!(check_selectors_fit(Some("app=web"), Some("a=b")), Ok(()));
    assert_eq!(check_selectors_fit(None, None), Ok(()));
}

#[test]
fn field_manager_follows_validate_field_manager() {
    assert_eq!(check_field_manager("kubectl-myops"), Ok(()));
    assert_eq!(check_field_manager("my tool (ops) ✓"), Ok(()));
    assert_eq!(check_field_manager(&"m".repeat(128)), Ok(()));
    let e = check_field_manager(&"m".repeat(200)).unwrap_err();
    assert!(
        e.contains("200 bytes long; the API server accepts at most 128"),
        "{e}"
    );
    assert!(e.len() < 300, "{e}");
    // 43 × 'é' = 86 bytes: the limit is in bytes, as Go's len().
    assert!(check_field_manager(&"é".repeat(65)).is_err(), "130 bytes");
    for (bad, code) in [
        ("a\u{1b}[31m", "U+001B at byte 1"),
        ("a\tb", "U+0009"),
        ("a\u{a0}b", "U+00A0"),
        ("a\u{202e}b", "U+202E"),
        ("\u{e000}", "U+E000"),
    ] {
        let e = check_field_manager(bad).unwrap_err();
        assert!(e.contains(code), "{bad:?}: {e}");
        assert!(!e.contains('\u{1b}'), "{e}");
    }
}

#[test]
fn namespaces_are_dns_labels() {
    for ok in ["default", "kube-system", "a", "0", &"n".repeat(63)] {
        assert_eq!(check_namespace(ok), Ok(()), "{ok:?}");
    }
    for bad in ["", "Bad_NS", "-a", "a-", "a.b", &"n".repeat(64)] {
        let e = check_namespace(bad).unwrap_err();
        assert!(e.contains("IsDNS1123Label"), "{bad:?}: {e}");
    }
    let e = check_namespace(&"n".repeat(100_000)).unwrap_err();
    assert!(e.contains("(100000 characters)") && e.len() < 400, "{e}");
}
