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
//! CEL features used, with the Kubernetes version whose API server offers them to a new
//! ValidatingAdmissionPolicy (k8s.io/apiserver pkg/cel/environment/base.go): optional
//! types (`.?`, `[?]`, 1.28), `lists.range` (the cel-go lists extension, 1.34).
//! Every expression is parsed and its variables checked locally by the `cel` crate before it
//! is printed ([`check`]), and its cost estimated ([`estimate_cost`]).

use std::sync::Arc;

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
/// out. `Err` only for a pattern that does not parse (plugin.yaml validation refuses those).
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
}

impl Side {
    fn plain(text: &str) -> Side {
        Side {
            text: text.into(),
            optional: false,
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
        let text = if let Some(i) = list_index(key) {
            // `[e].map(x, f(x))[0]` binds `e` once (CEL has no `let` in every version).
            format!(
                "[{}].map(x, x.hasValue() && type(x.value()) == list ? x[?{i}] : x[?{}])[0]",
                self.opt(),
                string_literal(key)
            )
        } else if is_identifier(key) {
            format!("{}.?{key}", self.text)
        } else {
            format!("{}[?{}]", self.text, string_literal(key))
        };
        Side {
            text,
            optional: true,
        }
    }

    /// The child at the comprehension variable `var` (a map key or a list index).
    fn at(&self, var: &str) -> Side {
        Side {
            text: format!("{}[?{var}]", self.opt()),
            optional: true,
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

/// The JSON Pointer token read as a list index the way the client's judge reads it (a
/// `usize` that `str::parse` accepts), or `None`.
fn list_index(key: &str) -> Option<u64> {
    (!key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()))
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
        },
        Side {
            text: format!("{p}[1]"),
            optional: true,
        },
    );
    match f(&bo, &bn) {
        Cel::False => Cel::False,
        Cel::Text(t) => Cel::Text(format!("[[{}, {}]].exists({p}, {t})", o.opt(), n.opt())),
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
        return Cel::or(
            keys.iter()
                .map(|k| changed(&state.child(Some(k)), &o.key(k), &n.key(k), depth + 1))
                .collect(),
        );
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
        body = Cel::Text(format!(
            "(string({k}) == {} ? {} : {})",
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

/// The variables a ValidatingAdmissionPolicy expression may use (Kubernetes docs,
/// "Validating Admission Policy": Variables).
pub const VAP_VARIABLES: [&str; 7] = [
    "object",
    "oldObject",
    "request",
    "params",
    "namespaceObject",
    "authorizer",
    "variables",
];

/// The CEL type identifiers (CEL spec, "Types"), which the crate lists among the variables a
/// program references (`type(x) == map`).
/// `lists` and `optional` are the namespaces of `lists.range` and `optional.of`, which it
/// lists the same way.
const TYPE_NAMES: [&str; 14] = [
    "map",
    "list",
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "null_type",
    "type",
    "dyn",
    "optional_type",
    "lists",
    "optional",
];

/// The CEL environment the local check uses: the standard library, optional types and the
/// lists extension — what the generator emits and an API server of 1.34 or later offers.
fn environment() -> Arc<cel::Env> {
    let mut env = cel::Env::stdlib().with_optional_support(true);
    // The extension only adds functions; a clash would be a bug of the crate, and the check
    // then still parses with the standard library.
    let _ = env.add_extension(cel::extensions::lists);
    Arc::new(env)
}

/// Parses `expression` with the `cel` crate (optional syntax and the lists extension on) and
/// checks that it reads only the variables a ValidatingAdmissionPolicy declares.
///
/// # Errors
/// The parser's message, or the first undeclared variable, as one sentence.
pub fn check(expression: &str) -> Result<(), String> {
    let env = environment();
    let program = env
        .compile(expression)
        .map_err(|e| format!("the CEL does not parse: {e}"))?;
    let refs = program.references();
    let mut bound = Vec::new();
    bound_variables(&program.expression().expr, &mut bound);
    if let Some(v) = refs.variables().into_iter().find(|v| {
        !VAP_VARIABLES.contains(v) && !TYPE_NAMES.contains(v) && !bound.iter().any(|b| b == v)
    }) {
        return Err(format!(
            "the CEL reads {v}, which a ValidatingAdmissionPolicy does not declare"
        ));
    }
    Ok(())
}

/// The variables the comprehensions of `expr` bind (the crate lists them among the
/// references of a program).
fn bound_variables(expr: &cel::common::ast::Expr, out: &mut Vec<String>) {
    use cel::common::ast::{EntryExpr, Expr};
    match expr {
        Expr::Unspecified | Expr::Literal(_) | Expr::Ident(_) => {}
        Expr::Select(s) => bound_variables(&s.operand.expr, out),
        Expr::Call(c) => {
            c.target.iter().for_each(|t| bound_variables(&t.expr, out));
            c.args.iter().for_each(|a| bound_variables(&a.expr, out));
        }
        Expr::List(l) => l
            .elements
            .iter()
            .for_each(|e| bound_variables(&e.expr, out)),
        Expr::Map(m) => m.entries.iter().for_each(|e| {
            if let EntryExpr::MapEntry(m) = &e.expr {
                bound_variables(&m.key.expr, out);
                bound_variables(&m.value.expr, out);
            }
        }),
        Expr::Struct(_) => {}
        Expr::Comprehension(c) => {
            out.push(c.iter_var.clone());
            out.extend(c.iter_var2.clone());
            out.push(c.accu_var.clone());
            for e in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                bound_variables(&e.expr, out);
            }
        }
    }
}

/// A validation expression compiled once by the `cel` crate, to be evaluated locally for
/// many changes (what the API server would answer for them).
pub struct Local {
    env: Arc<cel::Env>,
    program: cel::Program,
}

impl Local {
    /// Compiles `expression` (optional syntax and the lists extension on).
    ///
    /// # Errors
    /// The parser's message.
    pub fn new(expression: &str) -> Result<Local, String> {
        let env = environment();
        let program = env.compile(expression).map_err(|e| e.to_string())?;
        Ok(Local { env, program })
    }

    /// Whether the validation allows (true) an UPDATE from `old` to `new`.
    ///
    /// # Errors
    /// An evaluation error, or a result that is not a boolean.
    pub fn allows(&self, old: &serde_json::Value, new: &serde_json::Value) -> Result<bool, String> {
        let mut ctx = cel::Context::with_env(self.env.clone());
        let value = |v: &serde_json::Value| cel::to_value(v).map_err(|e| e.to_string());
        ctx.add_variable("oldObject", value(old)?)
            .map_err(|e| e.to_string())?;
        ctx.add_variable("object", value(new)?)
            .map_err(|e| e.to_string())?;
        ctx.add_variable(
            "request",
            value(&serde_json::json!({"operation": "UPDATE"}))?,
        )
        .map_err(|e| e.to_string())?;
        match self.program.execute(&ctx).map_err(|e| e.to_string())? {
            cel::Value::Bool(b) => Ok(b),
            other => Err(format!("the CEL gave {other:?}, not a boolean")),
        }
    }
}

/// How many items the estimate assumes in a list or map whose size it cannot know: kube-cel's
/// heuristic for an unbounded list (kube-cel src/validation/analysis.rs `DEFAULT_MAX_ITEMS`).
/// The API server's own estimate of an unbounded list is bounded only by the request size.
pub const ASSUMED_ITEMS: u64 = 1_000;

/// The estimated worst-case runtime cost of `expression`, in cel-go's cost units (one per
/// variable, field selection and function call: cel-go common/cost.go), with every list or
/// map of unknown size taken to hold [`ASSUMED_ITEMS`] items: a comprehension over a list
/// literal costs its body once per element, over anything else [`ASSUMED_ITEMS`] times;
/// `==`/`!=` of two containers a tenth of their size (cel-go's traversal factor). Both sides
/// of `&&`, `||` and `?:` are counted, so this is an upper bound of what one call costs.
///
/// # Errors
/// The parser's message.
pub fn estimate_cost(expression: &str) -> Result<u64, String> {
    let program = environment()
        .compile(expression)
        .map_err(|e| e.to_string())?;
    Ok(cost(&program.expression().expr))
}

/// The cost of a comprehension's step split into what every item pays and what one item
/// pays: the true branch of `string(var) == 'key' ? … : …` is taken for one key only (how
/// the generator descends into a literal segment beside a `*`).
fn keyed(expr: &cel::common::ast::Expr, var: &str) -> (u64, u64) {
    use cel::common::ast::Expr;
    let Expr::Call(c) = expr else {
        return (cost(expr), 0);
    };
    let names_key = |e: &Expr| match e {
        Expr::Call(eq) if eq.func_name == "_==_" => eq.args.first().is_some_and(|a| {
            matches!(&a.expr, Expr::Call(s) if s.func_name == "string"
                && matches!(s.args.first().map(|x| &x.expr), Some(Expr::Ident(v)) if v == var))
        }),
        _ => false,
    };
    if c.func_name == "_?_:_" && c.args.len() == 3 && names_key(&c.args[0].expr) {
        let (per, once) = keyed(&c.args[2].expr, var);
        return (
            1 + cost(&c.args[0].expr) + per,
            once + cost(&c.args[1].expr),
        );
    }
    let mut per = own_cost(&c.func_name) + c.target.as_ref().map_or(0, |t| cost(&t.expr));
    let mut once = 0;
    for a in &c.args {
        let (p, o) = keyed(&a.expr, var);
        per += p;
        once += o;
    }
    (per, once)
}

/// What a call costs apart from its arguments: `==`/`!=` a tenth of the size of what they
/// compare (containers of [`ASSUMED_ITEMS`]), everything else one.
fn own_cost(function: &str) -> u64 {
    match function {
        "_==_" | "_!=_" => ASSUMED_ITEMS / 10,
        _ => 1,
    }
}

/// The cost of one expression node (see [`estimate_cost`]).
fn cost(expr: &cel::common::ast::Expr) -> u64 {
    use cel::common::ast::{EntryExpr, Expr};
    match expr {
        Expr::Unspecified | Expr::Literal(_) => 0,
        Expr::Ident(_) => 1,
        Expr::Select(s) => 1 + cost(&s.operand.expr),
        Expr::Call(c) => {
            let own = own_cost(&c.func_name);
            let args: u64 = c.args.iter().map(|a| cost(&a.expr)).sum();
            own + args + c.target.as_ref().map_or(0, |t| cost(&t.expr))
        }
        Expr::List(l) => 10 + l.elements.iter().map(|e| cost(&e.expr)).sum::<u64>(),
        Expr::Map(m) => {
            30 + m
                .entries
                .iter()
                .map(|e| match &e.expr {
                    EntryExpr::MapEntry(m) => cost(&m.key.expr) + cost(&m.value.expr),
                    EntryExpr::StructField(f) => cost(&f.value.expr),
                })
                .sum::<u64>()
        }
        Expr::Struct(s) => {
            40 + s
                .entries
                .iter()
                .map(|e| match &e.expr {
                    EntryExpr::MapEntry(m) => cost(&m.key.expr) + cost(&m.value.expr),
                    EntryExpr::StructField(f) => cost(&f.value.expr),
                })
                .sum::<u64>()
        }
        Expr::Comprehension(c) => {
            let items = match &c.iter_range.expr {
                Expr::List(l) => l.elements.len() as u64,
                _ => ASSUMED_ITEMS,
            };
            let (step, once) = keyed(&c.loop_step.expr, &c.iter_var);
            let per_item = cost(&c.loop_cond.expr) + step;
            cost(&c.iter_range.expr)
                + cost(&c.accu_init.expr)
                + items.saturating_mul(per_item)
                + once
                + cost(&c.result.expr)
        }
    }
}
