//! A policy rule's `deny` paths as CEL that an API server evaluates in a
//! ValidatingAdmissionPolicy: one expression per denied path, true when the update leaves
//! every field that path denies as it was (`oldObject` vs `object`), with the same meaning
//! of "changes a path" as the client's judge ([`super::denied_changes`], the `policy` module
//! comment): at or below a matched path, above it only when a denied field beneath it
//! changes, `allow` paths cut out, list items by index, server bookkeeping
//! (`resourceVersion`, `managedFields`, `generation`) left out.
//!
//! The expression walks the pattern, not the object: a literal segment is an optional
//! field selection (`oldObject.?spec.?replicas`, `[?'example.com/owner']`), so an absent
//! field is `optional.none()` and compares equal only to another absent field — the
//! `has()` guard of every step in one operator. A `*` segment (or a segment an `allow`
//! splits) iterates the keys of a map, or the indexes of a list (`lists.range`), on both
//! sides. A trailing `*` or `/**` with nothing allowed below it needs no iteration: some
//! child differs exactly when the two containers differ and one of them has children.
//!
//! What the API server's cel-go does differently from the `cel` crate, learnt on the cluster
//! (`policies verify` and the plain-kubectl tests) and built in here: it selects nothing
//! through an element of a list of optionals (`[[o, n]].exists(p, p[0][?k])`), so a bound
//! side is selected from through its value (`p[0].orValue({})`); it fails on a key selected
//! from a list or a scalar, so below the root every level is bound and a key is selected from
//! a map only; its compiler types selections and comprehension keys (`optional(bytes)`,
//! `int`) in ways the tests do not accept, so bound sides and keys are `dyn`.
//!
//! CEL features used, with the Kubernetes version whose API server offers them to a new
//! ValidatingAdmissionPolicy (k8s.io/apiserver pkg/cel/environment/base.go): optional
//! types (`.?`, `[?]`, 1.28), `lists.range` (the cel-go lists extension, 1.34).
//! Every expression is parsed and its variables checked locally by the `cel` crate before it
//! is printed ([`check`]), and its cost estimated ([`estimate_cost`]).

mod local;

pub use local::{ASSUMED_ITEMS, Local, VAP_VARIABLES, check, estimate_cost};

use super::pattern::{PathPattern, Seg};

/// The fields the client's structured diff leaves out (server bookkeeping every write
/// changes: [`crate::rules::diff::operations`]); the generated CEL allows them, so a deny of
/// `/metadata` or `/**` refuses what the client refuses and no more.
const BOOKKEEPING: [&str; 3] = [
    "/metadata/resourceVersion",
    "/metadata/managedFields",
    "/metadata/generation",
];

/// The CEL expression that holds (true) when the change from `oldObject` to `object`
/// leaves every field `deny` matches unchanged, `allow` and the server's bookkeeping cut
/// out.
pub fn unchanged(deny: &PathPattern, allow: &[PathPattern]) -> String {
    let bookkeeping: Vec<PathPattern> = BOOKKEEPING
        .iter()
        .filter_map(|p| super::parse_pattern(p).ok())
        .collect();
    let allows: Vec<Vec<Seg>> = allow
        .iter()
        .chain(&bookkeeping)
        .map(PathPattern::segments)
        .collect();
    let state = State {
        deny: vec![deny.segments()],
        allow: allows,
    };
    let root = (Side::plain("oldObject"), Side::plain("object"));
    match changed(&state, &root.0, &root.1, 0) {
        Cel::False => "true".into(),
        Cel::Text(t) => format!("!({t})"),
    }
}

/// What is left of the deny and allow patterns at one node of the walk: the segments not
/// yet matched (an empty list: the pattern matches here).
#[derive(Debug, Clone)]
struct State {
    deny: Vec<Vec<Seg>>,
    allow: Vec<Vec<Seg>>,
}

impl State {
    /// The patterns that go on below a child whose key is `key` (`None`: a key none of the
    /// literal segments name).
    fn child(&self, key: Option<&str>) -> State {
        let step = |pats: &[Vec<Seg>]| -> Vec<Vec<Seg>> {
            pats.iter()
                .filter_map(|p| match p.split_first() {
                    // Matched above: everything below stays covered.
                    None => Some(Vec::new()),
                    Some((Seg::Any, rest)) => Some(rest.to_vec()),
                    Some((Seg::Key(k), rest)) if Some(k.as_str()) == key => Some(rest.to_vec()),
                    _ => None,
                })
                .collect()
        };
        State {
            deny: step(&self.deny),
            allow: step(&self.allow),
        }
    }

    /// The literal keys the remaining patterns name next, and whether any names `*`.
    fn heads(&self) -> (Vec<String>, bool) {
        let mut keys: Vec<String> = Vec::new();
        let mut any = false;
        for p in self.deny.iter().chain(&self.allow) {
            match p.first() {
                Some(Seg::Any) => any = true,
                Some(Seg::Key(k)) if !keys.contains(k) => keys.push(k.clone()),
                _ => {}
            }
        }
        (keys, any)
    }
}

/// A CEL boolean under construction: `False` is kept apart so that branches nothing can
/// refuse fall away instead of cluttering the expression.
#[derive(Debug, Clone, PartialEq)]
enum Cel {
    False,
    Text(String),
}

impl Cel {
    fn or(parts: Vec<Cel>) -> Cel {
        let texts: Vec<String> = parts
            .into_iter()
            .filter_map(|c| match c {
                Cel::False => None,
                Cel::Text(t) => Some(t),
            })
            .collect();
        match texts.len() {
            0 => Cel::False,
            1 => Cel::Text(texts.into_iter().next().unwrap_or_default()),
            _ => Cel::Text(format!("({})", texts.join(" || "))),
        }
    }
}

/// One side of the comparison at a node: the CEL that selects it, and whether that CEL is
/// an optional (every selection below the root is).
#[derive(Debug, Clone)]
struct Side {
    text: String,
    optional: bool,
    /// The text indexes a list of optionals (`p0[0]`, `[…].map(…)[0]`): the API server's
    /// CEL (cel-go, Kubernetes 1.36) selects nothing through such an element — `p0[0].?image`
    /// and `p0[0][?k0]` are `optional.none()` whatever it holds — so a child is selected from
    /// its value ([`Side::base`]).
    element: bool,
}

impl Side {
    fn plain(text: &str) -> Side {
        Side {
            text: text.into(),
            optional: false,
            element: false,
        }
    }

    /// This side as an optional (`optional.of(…)` around the root).
    fn opt(&self) -> String {
        if self.optional {
            self.text.clone()
        } else {
            format!("optional.of({})", self.text)
        }
    }

    /// The child named by a literal segment. A segment of digits may be a list index as
    /// well as a map key (RFC 6901 §4), so it selects by type.
    fn key(&self, key: &str) -> Side {
        let element = list_index(key).is_some();
        let text = if let Some(i) = list_index(key) {
            // `[e].map(x, f(x))[0]` binds `e` once (CEL has no `let` in every version); `x`
            // is a comprehension variable, which selects through an optional as it should.
            // A key of a map only: cel-go errors on a string index into a scalar.
            format!(
                "[dyn({})].map(x, !x.hasValue() ? optional.none() : type(x.value()) == list ? x[?{i}] : type(x.value()) == map ? x[?{}] : optional.none())[0]",
                self.opt(),
                string_literal(key)
            )
        } else if is_identifier(key) {
            format!("{}.?{key}", self.map_base())
        } else {
            format!("{}[?{}]", self.map_base(), string_literal(key))
        };
        Side {
            text,
            optional: true,
            element,
        }
    }

    /// The child at the comprehension variable `var` (a map key or a list index).
    fn at(&self, var: &str) -> Side {
        Side {
            text: format!("{}[?{var}]", self.base(true)),
            optional: true,
            element: false,
        }
    }

    /// The text a child is selected from: an element's value, or `{}` when it is absent
    /// (nothing selected from either: `optional.none()`); else this side itself, made an
    /// optional when `optional` asks.
    fn base(&self, optional: bool) -> String {
        if self.element {
            format!("{}.orValue({{}})", self.text)
        } else if optional {
            self.opt()
        } else {
            self.text.clone()
        }
    }

    /// The text a key is selected from: an element's value when it is a map, else `{}` — the
    /// API server's cel-go fails on a key selected from a list or a scalar ("unsupported index
    /// type 'string' in list", and with failurePolicy Fail every update would be refused),
    /// where the client's judge reads the path as absent. Any other side is the object itself
    /// (the root, always a map: [`children`] binds every side below it first).
    fn map_base(&self) -> String {
        if self.element {
            let v = format!("{}.orValue({{}})", self.text);
            format!("(type({v}) == map ? {v} : {{}})")
        } else {
            self.text.clone()
        }
    }

    /// The keys of a map or the indexes of a list at this side (none for an absent or
    /// scalar value): a map iterates its keys in a comprehension, a list of indexes is
    /// `lists.range`.
    fn keys(&self) -> String {
        let o = self.opt();
        format!(
            "(!({o}).hasValue() ? [] : type(({o}).value()) == list ? lists.range(size(({o}).value())) : type(({o}).value()) == map ? ({o}).value() : [])"
        )
    }

    /// Whether this side holds a map or list with at least one child.
    fn has_children(&self) -> String {
        let o = self.opt();
        format!(
            "(({o}).hasValue() && (type(({o}).value()) == map || type(({o}).value()) == list) && size(({o}).value()) > 0)"
        )
    }

    /// Whether this side holds a scalar (a value with no children to split into).
    fn scalar(&self) -> String {
        let o = self.opt();
        format!("(({o}).hasValue() && type(({o}).value()) != map && type(({o}).value()) != list)")
    }
}

/// The JSON Pointer token read as a list index the way the client's judge matches it (RFC
/// 6901 §4: digits without a leading zero), or `None`.
fn list_index(key: &str) -> Option<u64> {
    // Canonical digits only (`0`, or no leading zero): the client matches a pattern's
    // segments against the diff's pointers as strings, and the diff writes an index as `0`,
    // `1`, …, so `/x/00` never names the first item there.
    (!key.is_empty()
        && key.bytes().all(|b| b.is_ascii_digit())
        && (key == "0" || !key.starts_with('0')))
    .then(|| key.parse::<u64>().ok())
    .flatten()
    .filter(|i| *i <= i64::MAX as u64)
}

/// Whether `key` can follow `.?` as a CEL identifier (and is not a reserved word).
fn is_identifier(key: &str) -> bool {
    const RESERVED: [&str; 20] = [
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
    ];
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&key)
}

/// `s` as a single-quoted CEL string literal (backslash escapes for `\`, `'` and control
/// characters: the CEL spec's string escapes).
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The comprehension variable at nesting `depth` (`k0`, `k1`, …: each level its own name,
/// so an inner comprehension never hides an outer one).
fn var(depth: usize) -> String {
    format!("k{depth}")
}

/// The CEL that is true when a field the state denies changes between `o` and `n` — the
/// client judge's recursion (`judge` in judge.rs) unrolled over the pattern.
fn changed(state: &State, o: &Side, n: &Side, depth: usize) -> Cel {
    let allowed = state.allow.iter().any(Vec::is_empty);
    if allowed {
        return Cel::False;
    }
    let denied = state.deny.iter().any(Vec::is_empty);
    let allow_below = state.allow.iter().any(|p| !p.is_empty());
    let deny_below = state.deny.iter().any(|p| !p.is_empty());
    let differ = format!("{} != {}", o.text, n.text);
    if denied && !allow_below {
        return Cel::Text(differ);
    }
    if denied {
        return bound(o, n, depth, |o, n| split(state, o, n, depth));
    }
    if !deny_below {
        return Cel::False;
    }
    children(state, o, n, depth, false)
}

/// Runs `f` on the two sides bound once to `p{depth}[0]` and `p{depth}[1]`
/// (`[[o, n]].exists(p, …)`), so the long selections are not repeated in every test `f`
/// makes of them. `False` stays `False`.
fn bound(o: &Side, n: &Side, depth: usize, f: impl FnOnce(&Side, &Side) -> Cel) -> Cel {
    let p = format!("p{depth}");
    let (bo, bn) = (
        Side {
            text: format!("{p}[0]"),
            optional: true,
            element: true,
        },
        Side {
            text: format!("{p}[1]"),
            optional: true,
            element: true,
        },
    );
    match f(&bo, &bn) {
        Cel::False => Cel::False,
        // `dyn`: the API server's type checker infers a type for a selection from `object`
        // (`optional(bytes)` for `.?spec[?'a~b']`) that the tests below do not accept
        // (`type(…) == map ? v : []`, `orValue({})`); the values are checked at run time.
        Cel::Text(t) => Cel::Text(format!(
            "[[dyn({}), dyn({})]].exists({p}, {t})",
            o.opt(),
            n.opt()
        )),
    }
}

/// A denied node with allows below it: changed when the values differ and either the node
/// cannot be split (a scalar, or a map replaced by a list) or a child that is not allowed
/// differs.
fn split(state: &State, o: &Side, n: &Side, depth: usize) -> Cel {
    let differ = format!("{} != {}", o.text, n.text);
    {
        // Split into children only where both sides are maps or lists of one kind (or one is
        // absent); a value replaced by a scalar, or a map by a list, changes the path itself.
        let (oo, no) = (o.opt(), n.opt());
        let splittable = format!(
            "!{} && !{} && (!({oo}).hasValue() || !({no}).hasValue() || type(({oo}).value()) == type(({no}).value()))",
            o.scalar(),
            n.scalar()
        );
        let children = match children(state, o, n, depth, true) {
            Cel::False => "false".to_string(),
            Cel::Text(t) => t,
        };
        Cel::Text(format!("({differ} && (!({splittable}) || {children}))"))
    }
}

/// The CEL for "a denied field below this node changes": literal segments select their
/// child directly; a `*` iterates every key on both sides (`o` and `n` bound first unless
/// `bound_already`).
fn children(state: &State, o: &Side, n: &Side, depth: usize, bound_already: bool) -> Cel {
    let (keys, any) = state.heads();
    // Below a denied node every child is denied, not just the ones the allows name.
    let any = any || state.deny.iter().any(Vec::is_empty);
    if !any {
        let descend = |o: &Side, n: &Side| {
            Cel::or(
                keys.iter()
                    .map(|k| changed(&state.child(Some(k)), &o.key(k), &n.key(k), depth + 1))
                    .collect(),
            )
        };
        // Below the root a side may hold a list or a scalar where the pattern names a key:
        // bound, it is selected from through a type test ([`Side::map_base`]).
        return if !o.optional || bound_already {
            descend(o, n)
        } else {
            bound(o, n, depth, descend)
        };
    }
    // A trailing `*` (or `/**`) with nothing allowed or literal beside it: some child
    // differs exactly when the containers differ and one of them has children.
    let wild = state.child(None);
    let trailing = keys.is_empty()
        && wild.allow.is_empty()
        && wild.deny.iter().all(Vec::is_empty)
        && !wild.deny.is_empty();
    let run = |o: &Side, n: &Side| {
        if trailing {
            Cel::Text(format!(
                "({} != {} && ({} || {}))",
                o.text,
                n.text,
                o.has_children(),
                n.has_children()
            ))
        } else {
            iterate(state, &keys, &wild, o, n, depth)
        }
    };
    if bound_already {
        run(o, n)
    } else {
        bound(o, n, depth, run)
    }
}

/// Some key on either side (a map key or a list index) under which a denied field changes.
fn iterate(state: &State, keys: &[String], wild: &State, o: &Side, n: &Side, depth: usize) -> Cel {
    let k = var(depth);
    let (oc, nc) = (o.at(&k), n.at(&k));
    let mut body = changed(wild, &oc, &nc, depth + 1);
    for key in keys.iter().rev() {
        let branch = changed(&state.child(Some(key)), &oc, &nc, depth + 1);
        if branch == body {
            continue;
        }
        let text = |c: &Cel| match c {
            Cel::False => "false".to_string(),
            Cel::Text(t) => t.clone(),
        };
        // `dyn`: the type checker may type the key as the int of `lists.range` and call
        // string(int) on a map's string key (no such overload at run time).
        body = Cel::Text(format!(
            "(string(dyn({k})) == {} ? {} : {})",
            string_literal(key),
            text(&branch),
            text(&body)
        ));
    }
    match body {
        Cel::False => Cel::False,
        Cel::Text(b) => Cel::Text(format!(
            "({} != {} && [{}, {}].exists(s{depth}, s{depth}.exists({k}, {b})))",
            o.text,
            n.text,
            o.keys(),
            n.keys()
        )),
    }
}
