//! Label and annotation keys and values as the API server validates an object's metadata,
//! with apimachinery's own messages (k8s.io/apimachinery/pkg/api/validate/content `kube.go`,
//! `dns.go`, `errors.go`; `pkg/api/validation/objectmeta.go` `ValidateAnnotations`;
//! `pkg/apis/meta/v1/validation` `ValidateLabels`), so `label` and `annotate` refuse what
//! the server would refuse before anything is sent, in the words kubectl would print.

/// The longest label key name part and label value, in bytes (`labelKeyMaxLength`,
/// `LabelValueMaxLength`).
pub const MAX_LABEL_PART_BYTES: usize = 63;

/// The longest DNS subdomain (a label key prefix), in bytes (`DNS1123SubdomainMaxLength`).
pub const MAX_SUBDOMAIN_BYTES: usize = 253;

/// The largest total size of an object's annotations, keys plus values, in bytes
/// (`TotalAnnotationSizeLimitB`, 256 KiB).
pub const MAX_ANNOTATION_BYTES: usize = 256 * 1024;

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

/// apimachinery's `RegexError`: the message, the examples, the regex.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{re}')"));
    out
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`.
fn is_label_word(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.…)*` without the length limit.
fn is_subdomain_shape(s: &str) -> bool {
    s.split('.').all(|l| {
        !l.is_empty()
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    })
}

/// `IsDNS1123Subdomain`'s messages for `s` (empty when valid).
fn subdomain_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > MAX_SUBDOMAIN_BYTES {
        errs.push(format!("must be no more than {MAX_SUBDOMAIN_BYTES} bytes"));
    }
    if !is_subdomain_shape(s) {
        errs.push(regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `IsQualifiedName` (`IsLabelKey`): the messages for label key `k`, empty when valid — an
/// optional DNS-subdomain prefix and `/`, then a name of at most 63 bytes of
/// `[A-Za-z0-9_.-]` starting and ending alphanumeric.
pub fn label_key_errors(k: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = k.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    subdomain_errors(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > MAX_LABEL_PART_BYTES {
        errs.push(format!(
            "name part must be no more than {MAX_LABEL_PART_BYTES} bytes"
        ));
    }
    if !is_label_word(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`: the messages for label value `v`, empty when valid — empty, or at
/// most 63 bytes of `[A-Za-z0-9_.-]` starting and ending alphanumeric.
pub fn label_value_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > MAX_LABEL_PART_BYTES {
        errs.push(format!("must be no more than {MAX_LABEL_PART_BYTES} bytes"));
    }
    if !v.is_empty() && !is_label_word(v) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            &format!("({LABEL_KEY_FMT})?"),
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `ValidateAnnotations`' key rule: a qualified name, case not mattering (the key is
/// lowercased before [`label_key_errors`]).
pub fn annotation_key_errors(k: &str) -> Vec<String> {
    label_key_errors(&k.to_lowercase())
}

/// `ValidateAnnotationsSize`: the total bytes of the keys and values of `annotations`, and
/// whether it exceeds [`MAX_ANNOTATION_BYTES`].
pub fn annotations_size<'a>(annotations: impl IntoIterator<Item = (&'a str, &'a str)>) -> usize {
    annotations
        .into_iter()
        .map(|(k, v)| k.len() + v.len())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_keys_follow_is_qualified_name_word_for_word() {
        assert!(label_key_errors("app").is_empty());
        assert!(label_key_errors("example.com/App_1.x").is_empty());
        assert_eq!(
            label_key_errors("bad_key!"),
            vec![
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
            ]
        );
        assert_eq!(
            label_key_errors(&"a".repeat(64)),
            vec!["name part must be no more than 63 bytes"]
        );
        assert!(label_key_errors(&"a".repeat(63)).is_empty());
        assert_eq!(
            label_key_errors("Example.com/x"),
            vec![
                "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
        assert_eq!(
            label_key_errors("/x"),
            vec!["prefix part must be non-empty"]
        );
        assert_eq!(label_key_errors("a/b/c").len(), 1);
        assert_eq!(label_key_errors("a/").len(), 2);
        let long_prefix = format!("{}/x", vec!["a".repeat(63); 5].join("."));
        assert_eq!(
            label_key_errors(&long_prefix),
            vec!["prefix part must be no more than 253 bytes"]
        );
    }

    #[test]
    fn label_values_and_annotation_keys() {
        assert!(label_value_errors("").is_empty());
        assert!(label_value_errors(&"v".repeat(63)).is_empty());
        assert_eq!(
            label_value_errors(&"v".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
        assert_eq!(label_value_errors("a\nb").len(), 1);
        assert!(label_value_errors("a\nb")[0].starts_with("a valid label must be an empty string"));
        assert!(annotation_key_errors("Example.COM/Note").is_empty());
        assert_eq!(annotations_size([("ab", "cde")]), 5);
    }
}
