//! The generated CEL checked and run locally with the `cel` crate (cel-rust): parsed with
//! optional syntax and the lists extension, its variables checked against what a
//! ValidatingAdmissionPolicy declares, evaluated for a change, and its cost estimated.

use std::sync::Arc;

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
    // `var` itself, or `dyn(var)`.
    let is_var = |e: &Expr| match e {
        Expr::Ident(v) => v == var,
        Expr::Call(d) if d.func_name == "dyn" => {
            matches!(d.args.first().map(|x| &x.expr), Some(Expr::Ident(v)) if v == var)
        }
        _ => false,
    };
    let names_key = |e: &Expr| match e {
        Expr::Call(eq) if eq.func_name == "_==_" => eq.args.first().is_some_and(|a| {
            matches!(&a.expr, Expr::Call(s) if s.func_name == "string"
                && s.args.first().is_some_and(|x| is_var(&x.expr)))
        }),
        _ => false,
    };
    if c.func_name == "_?_:_" && c.args.len() == 3 && names_key(&c.args[0].expr) {
        let (per, once) = keyed(&c.args[2].expr, var);
        return (
            total([1, cost(&c.args[0].expr), per]),
            total([once, cost(&c.args[1].expr)]),
        );
    }
    let mut per = total([own_cost(c), c.target.as_ref().map_or(0, |t| cost(&t.expr))]);
    let mut once: u64 = 0;
    for a in &c.args {
        let (p, o) = keyed(&a.expr, var);
        per = per.saturating_add(p);
        once = once.saturating_add(o);
    }
    (per, once)
}

/// What a call costs apart from its arguments: `==`/`!=` of two values that may be
/// containers a tenth of their size ([`ASSUMED_ITEMS`]), of a scalar (a literal, a `type`,
/// `string` or `size` result) one, everything else one.
fn own_cost(call: &cel::common::ast::CallExpr) -> u64 {
    use cel::common::ast::Expr;
    let scalar = |e: &Expr| match e {
        Expr::Literal(_) | Expr::Ident(_) => true,
        Expr::Call(c) => matches!(c.func_name.as_str(), "type" | "string" | "size"),
        _ => false,
    };
    match call.func_name.as_str() {
        "_==_" | "_!=_" if !call.args.iter().any(|a| scalar(&a.expr)) => ASSUMED_ITEMS / 10,
        _ => 1,
    }
}

/// The sum of `parts`, saturating: six nested `*` already pass `u64::MAX` (a sum that wraps
/// would read as cheap and the warning would not be given).
fn total(parts: impl IntoIterator<Item = u64>) -> u64 {
    parts.into_iter().fold(0, u64::saturating_add)
}

/// The cost of the entries of a map or struct literal.
fn entries_cost(entries: &[cel::common::ast::IdedEntryExpr]) -> u64 {
    use cel::common::ast::EntryExpr;
    total(entries.iter().map(|e| match &e.expr {
        EntryExpr::MapEntry(m) => total([cost(&m.key.expr), cost(&m.value.expr)]),
        EntryExpr::StructField(f) => cost(&f.value.expr),
    }))
}

/// The cost of one expression node (see [`estimate_cost`]).
fn cost(expr: &cel::common::ast::Expr) -> u64 {
    use cel::common::ast::Expr;
    match expr {
        Expr::Unspecified | Expr::Literal(_) => 0,
        Expr::Ident(_) => 1,
        Expr::Select(s) => total([1, cost(&s.operand.expr)]),
        Expr::Call(c) => total(
            [own_cost(c), c.target.as_ref().map_or(0, |t| cost(&t.expr))]
                .into_iter()
                .chain(c.args.iter().map(|a| cost(&a.expr))),
        ),
        Expr::List(l) => total(std::iter::once(10).chain(l.elements.iter().map(|e| cost(&e.expr)))),
        Expr::Map(m) => total([30, entries_cost(&m.entries)]),
        Expr::Struct(s) => total([40, entries_cost(&s.entries)]),
        Expr::Comprehension(c) => {
            let items = match &c.iter_range.expr {
                Expr::List(l) => l.elements.len() as u64,
                _ => ASSUMED_ITEMS,
            };
            let (step, once) = keyed(&c.loop_step.expr, &c.iter_var);
            let per_item = total([cost(&c.loop_cond.expr), step]);
            total([
                cost(&c.iter_range.expr),
                cost(&c.accu_init.expr),
                items.saturating_mul(per_item),
                once,
                cost(&c.result.expr),
            ])
        }
    }
}
