//! The evaluator: client-go's `jsonpath.go` `FindResults`, walking the parsed nodes over a
//! decoded JSON value.

use std::borrow::Cow;

use serde_json::Value;

use super::parse::{Node, PResult, Param, Top};
use super::print::go_text;

pub(super) struct Exec {
    pub(super) allow_missing: bool,
    pub(super) in_range: usize,
    pub(super) begin: bool,
    pub(super) end: bool,
}

pub(super) type Vals<'v> = Vec<Cow<'v, Value>>;

fn child<'v>(v: &Cow<'v, Value>, f: impl Fn(&Value) -> Option<&Value>) -> Option<Cow<'v, Value>> {
    match v {
        Cow::Borrowed(b) => f(b).map(Cow::Borrowed),
        Cow::Owned(o) => f(o).map(|x| Cow::Owned(x.clone())),
    }
}

fn children<'v>(v: &Cow<'v, Value>) -> Vals<'v> {
    fn of(v: &Value) -> Vec<Value> {
        match v {
            Value::Object(m) => m.values().cloned().collect(),
            Value::Array(a) => a.clone(),
            Value::String(s) => s.bytes().map(Value::from).collect(),
            _ => Vec::new(),
        }
    }
    match v {
        Cow::Borrowed(b) => match b {
            Value::Object(m) => m.values().map(Cow::Borrowed).collect(),
            Value::Array(a) => a.iter().map(Cow::Borrowed).collect(),
            other => of(other).into_iter().map(Cow::Owned).collect(),
        },
        Cow::Owned(o) => of(o).into_iter().map(Cow::Owned).collect(),
    }
}

/// Go's type name of a decoded JSON value, for client-go's error messages.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

impl Exec {
    fn list<'v>(&mut self, input: Vals<'v>, nodes: &[Node]) -> PResult<Vals<'v>> {
        let mut cur = input;
        for n in nodes {
            cur = self.walk(cur, n)?;
        }
        Ok(cur)
    }

    fn walk<'v>(&mut self, input: Vals<'v>, node: &Node) -> PResult<Vals<'v>> {
        let each = |v: Value| -> Vals<'v> { input.iter().map(|_| Cow::Owned(v.clone())).collect() };
        match node {
            Node::Text(t) => Ok(vec![Cow::Owned(Value::String(t.clone()))]),
            Node::Int(i) => Ok(each(Value::from(*i))),
            Node::Float(f) => Ok(each(
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
            )),
            Node::Bool(b) => Ok(each(Value::Bool(*b))),
            Node::Field(name) => {
                if input.is_empty() {
                    return Ok(input);
                }
                let out: Vals<'v> = input
                    .iter()
                    .filter_map(|v| child(v, |x| x.as_object().and_then(|m| m.get(name))))
                    .collect();
                if out.is_empty() && !self.allow_missing {
                    return Err(format!("{name} is not found"));
                }
                Ok(out)
            }
            Node::Array(params) => self.array(input, params),
            Node::Filter { left, right, op } => self.filter(input, left, right, op),
            Node::Wildcard => Ok(input
                .iter()
                .filter(|v| !v.is_null())
                .flat_map(children)
                .collect()),
            Node::Recursive => Ok(recursive(input)),
            Node::Union(lists) => {
                let mut out = Vec::new();
                for l in lists {
                    out.extend(self.list(input.clone(), l)?);
                }
                Ok(out)
            }
            Node::Identifier(id) => match id.as_str() {
                "range" => {
                    self.begin = true;
                    Ok(input)
                }
                "end" if self.in_range > 0 => {
                    self.end = true;
                    Ok(Vec::new())
                }
                "end" => Err("not in range, nothing to end".into()),
                other => Err(format!("unrecognized identifier {other}")),
            },
        }
    }

    fn array<'v>(&mut self, input: Vals<'v>, node: &[Param; 3]) -> PResult<Vals<'v>> {
        let mut out = Vec::new();
        for v in &input {
            if v.is_null() {
                continue;
            }
            let Some(len) = v.as_array().map(|a| a.len() as i64) else {
                return Err(format!("{} is not array or slice", go_type(v)));
            };
            let mut p = *node;
            if !p[0].known {
                p[0].value = 0;
            }
            if p[0].value < 0 {
                p[0].value += len;
            }
            if !p[1].known {
                p[1].value = len;
            }
            if p[1].value < 0 || (p[1].value == 0 && p[1].derived) {
                p[1].value += len;
            }
            if p[1].value == p[0].value {
                return Ok(out);
            }
            if p[0].value >= len || p[0].value < 0 {
                return Err(format!(
                    "array index out of bounds: index {}, length {len}",
                    p[0].value
                ));
            }
            if p[1].value > len || p[1].value < 0 {
                return Err(format!(
                    "array index out of bounds: index {}, length {len}",
                    p[1].value - 1
                ));
            }
            if p[0].value > p[1].value {
                return Err(format!(
                    "starting index {} is greater than ending index {}",
                    p[0].value, p[1].value
                ));
            }
            let step = if p[2].known {
                if p[2].value <= 0 {
                    return Err("step must be > 0".into());
                }
                p[2].value as usize
            } else {
                1
            };
            let (a, b) = (p[0].value as usize, p[1].value as usize);
            for i in (a..b).step_by(step) {
                if let Some(x) = child(v, |x| x.as_array().and_then(|arr| arr.get(i))) {
                    out.push(x);
                }
            }
        }
        Ok(out)
    }

    fn filter<'v>(
        &mut self,
        input: Vals<'v>,
        left: &[Node],
        right: &[Node],
        op: &str,
    ) -> PResult<Vals<'v>> {
        let mut out = Vec::new();
        for v in &input {
            let Some(len) = v.as_array().map(Vec::len) else {
                return Err(format!(
                    "{} is not array or slice and cannot be filtered",
                    go_text(v)
                ));
            };
            for i in 0..len {
                let Some(el) = child(v, |x| x.as_array().and_then(|a| a.get(i))) else {
                    continue;
                };
                let lefts = self.list(vec![el.clone()], left);
                if op == "exists" {
                    if lefts.is_ok_and(|l| !l.is_empty()) {
                        out.push(el);
                    }
                    continue;
                }
                let lefts = lefts?;
                match lefts.len() {
                    0 => continue,
                    1 => {}
                    _ => return Err("can only compare one element at a time".into()),
                }
                let rights = self.list(vec![el.clone()], right)?;
                match rights.len() {
                    0 => continue,
                    1 => {}
                    _ => return Err("can only compare one element at a time".into()),
                }
                if compare(&lefts[0], &rights[0], op)? {
                    out.push(el);
                }
            }
        }
        Ok(out)
    }
}

fn recursive<'v>(input: Vals<'v>) -> Vals<'v> {
    let mut out = Vec::new();
    for v in input {
        if v.is_null() {
            continue;
        }
        let kids = children(&v);
        if !kids.is_empty() {
            out.push(v);
            out.extend(recursive(kids));
        }
    }
    out
}

/// Go text/template's comparison (client-go's forked `template.Equal`, `Less`, …).
fn compare(a: &Value, b: &Value, op: &str) -> PResult<bool> {
    use std::cmp::Ordering;
    #[derive(PartialEq)]
    enum K {
        Bool,
        Int,
        Float,
        Str,
    }
    let kind = |v: &Value| match v {
        Value::Bool(_) => Some(K::Bool),
        Value::Number(n) if n.is_f64() => Some(K::Float),
        Value::Number(_) => Some(K::Int),
        Value::String(_) => Some(K::Str),
        _ => None,
    };
    let (Some(ka), Some(kb)) = (kind(a), kind(b)) else {
        return Err("invalid type for comparison".into());
    };
    if ka != kb {
        return Err("incompatible types for comparison".into());
    }
    let ord = match ka {
        K::Bool => {
            if !matches!(op, "==" | "!=") {
                return Err("invalid type for comparison".into());
            }
            if a == b {
                Ordering::Equal
            } else {
                Ordering::Less
            }
        }
        K::Int => match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => a.as_u64().cmp(&b.as_u64()),
        },
        K::Float => a
            .as_f64()
            .partial_cmp(&b.as_f64())
            .unwrap_or(Ordering::Less),
        K::Str => a.as_str().cmp(&b.as_str()),
    };
    Ok(match op {
        "==" => ord == Ordering::Equal,
        "!=" => ord != Ordering::Equal,
        "<" => ord == Ordering::Less,
        ">" => ord == Ordering::Greater,
        "<=" => ord != Ordering::Greater,
        ">=" => ord != Ordering::Less,
        other => return Err(format!("unrecognized filter operator {other}")),
    })
}

/// jsonpath.go `FindResults` over `nodes` with `data` as the root; also returns the index of
/// the `{end}` that closed the current range, if one did.
pub(super) fn find(
    ex: &mut Exec,
    nodes: &[Top],
    data: &Value,
) -> PResult<(Vec<Vec<Value>>, Option<usize>)> {
    let mut full = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let results: Vec<Value> = match &nodes[i] {
            Top::Text(t) => vec![Value::String(t.clone())],
            Top::List(l) => {
                ex.begin = false;
                ex.end = false;
                ex.list(vec![Cow::Borrowed(data)], l)?
                    .into_iter()
                    .map(Cow::into_owned)
                    .collect()
            }
        };
        if ex.end {
            ex.end = false;
            return Ok((full, Some(i)));
        }
        if ex.begin {
            ex.begin = false;
            ex.in_range += 1;
            let rest = &nodes[i + 1..];
            let mut end = None;
            if results.is_empty() {
                end = find(ex, rest, &Value::Null)?.1;
            } else {
                for v in &results {
                    let (r, e) = find(ex, rest, v)?;
                    full.extend(r);
                    end = e;
                }
            }
            ex.in_range -= 1;
            if let Some(e) = end {
                i += 1 + e;
            }
            i += 1;
            continue;
        }
        full.push(results);
        i += 1;
    }
    Ok((full, None))
}
