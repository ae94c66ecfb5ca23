//! kubectl's JSONPath *template* language (`-o jsonpath=…`, `jsonpath-file=`,
//! `jsonpath-as-json=`, and the cells of `-o custom-columns`): `{.a.b}`, `{.items[*].x}`,
//! `{range .items[*]}…{end}`, filters `[?(@.x=="y")]`, quoted literals `{"\n"}`, recursive
//! `..`, slices `[0:2:1]`, unions `[0,1]`, `['key']`, `@` and `$`.
//!
//! A port of `k8s.io/client-go/util/jsonpath` (parser.go, jsonpath.go, v0.36.3): RFC 9535
//! JSONPath crates implement neither the template text nor `range`, and no maintained crate on
//! crates.io implements this language, so the parser and evaluator follow client-go step by
//! step — including its quirks (a literal inside an action yields one value whatever the
//! input, a missing key is skipped unless `--allow-missing-template-keys=false`). Values are
//! printed as kubectl prints them: strings bare, numbers and booleans as Go's `fmt`, maps and
//! arrays as Go's `encoding/json` (keys sorted, `<`, `>` and `&` escaped), several values of
//! one action separated by one space.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value;

/// How much of a template an error message shows (issue 10: input echoed back is capped).
const SHOWN_CHARS: usize = 200;

/// A template that could not be parsed, or could not be applied to an object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPathError {
    /// The template is not valid kubectl JSONPath (usage error, exit 2).
    #[error(
        "error parsing jsonpath {}, {reason} (at character {position}); fix the template (syntax: https://kubernetes.io/docs/reference/kubectl/jsonpath/)",
        crate::echo::capped(template, SHOWN_CHARS)
    )]
    Parse {
        /// The template as given.
        template: String,
        /// client-go's reason, e.g. `unterminated array`.
        reason: String,
        /// 1-based character position where the parser stopped.
        position: usize,
    },
    /// The template is valid but does not fit the object (runtime failure, exit 1), e.g. an
    /// index out of bounds or a missing key with `--allow-missing-template-keys=false`.
    #[error(
        "error executing jsonpath {}: {reason}; fix the template or pass --allow-missing-template-keys=true",
        crate::echo::capped(template, SHOWN_CHARS)
    )]
    Execute {
        /// The template as given.
        template: String,
        /// client-go's reason, e.g. `array index out of bounds: index 5, length 2`.
        reason: String,
    },
}

/// One parsed element inside `{…}` (client-go node.go).
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Text(String),
    Field(String),
    Wildcard,
    Array([Param; 3]),
    Filter {
        left: Vec<Node>,
        right: Vec<Node>,
        op: String,
    },
    Int(i64),
    Float(f64),
    Bool(bool),
    Recursive,
    Union(Vec<Vec<Node>>),
    Identifier(String),
}

/// One slice parameter (client-go `ParamsEntry`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Param {
    value: i64,
    known: bool,
    derived: bool,
}

/// A top-level element: literal text, or an action `{…}`.
#[derive(Debug, Clone, PartialEq)]
enum Top {
    Text(String),
    List(Vec<Node>),
}

/// A parsed kubectl JSONPath template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    source: String,
    root: Vec<Top>,
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
    width: usize,
    root: Vec<Top>,
}

type PResult<T> = Result<T, String>;

fn is_terminator(r: Option<char>) -> bool {
    match r {
        None => true,
        Some(c) => matches!(
            c,
            ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
        ),
    }
}

fn is_alphanumeric(r: Option<char>) -> bool {
    r.is_some_and(|c| c == '_' || c.is_alphabetic() || c.is_numeric())
}

impl<'a> Parser<'a> {
    fn new(input: &'a str) -> Parser<'a> {
        Parser {
            input,
            pos: 0,
            start: 0,
            width: 0,
            root: Vec::new(),
        }
    }

    fn next(&mut self) -> Option<char> {
        match self.input[self.pos..].chars().next() {
            None => {
                self.width = 0;
                None
            }
            Some(c) => {
                self.width = c.len_utf8();
                self.pos += self.width;
                Some(c)
            }
        }
    }

    fn backup(&mut self) {
        self.pos -= self.width;
    }

    fn peek(&mut self) -> Option<char> {
        let r = self.next();
        self.backup();
        r
    }

    fn consume(&mut self) -> &'a str {
        let v = &self.input[self.start..self.pos];
        self.start = self.pos;
        v
    }

    /// parser.go `parseText` / `parseLeftDelim` / `parseRightDelim`, as a loop.
    fn parse_text(&mut self) -> PResult<()> {
        loop {
            if self.input[self.pos..].starts_with('{') {
                if self.pos > self.start {
                    let t = self.consume().to_string();
                    self.root.push(Top::Text(t));
                }
                self.pos += 1;
                self.consume();
                let mut cur = Vec::new();
                self.inside_action(&mut cur)?;
                self.root.push(Top::List(cur));
                continue;
            }
            if self.next().is_none() {
                break;
            }
        }
        if self.pos > self.start {
            let t = self.consume().to_string();
            self.root.push(Top::Text(t));
        }
        Ok(())
    }

    /// parser.go `parseInsideAction`: until the closing `}`.
    fn inside_action(&mut self, cur: &mut Vec<Node>) -> PResult<()> {
        loop {
            let rest = &self.input[self.pos..];
            if rest.starts_with('}') {
                self.pos += 1;
                self.consume();
                return Ok(());
            }
            if rest.starts_with("[?(") {
                self.parse_filter(cur)?;
                continue;
            }
            if rest.starts_with("..") {
                self.parse_recursive(cur)?;
                continue;
            }
            match self.next() {
                None | Some('\r') | Some('\n') => return Err("unclosed action".into()),
                Some(' ') | Some('@') | Some('$') => {
                    self.consume();
                }
                Some('[') => self.parse_array(cur)?,
                Some(q @ ('"' | '\'')) => self.parse_quote(cur, q)?,
                Some('.') => self.parse_field(cur),
                Some(c) if c == '+' || c == '-' || c.is_numeric() => {
                    self.backup();
                    self.parse_number(cur)?;
                }
                c if is_alphanumeric(c) => {
                    self.backup();
                    self.parse_identifier(cur);
                }
                Some(c) => {
                    return Err(format!(
                        "unrecognized character in action: U+{:04X} '{c}'",
                        c as u32
                    ));
                }
            }
        }
    }

    fn parse_identifier(&mut self, cur: &mut Vec<Node>) {
        loop {
            let r = self.next();
            if is_terminator(r) {
                self.backup();
                break;
            }
        }
        let v = self.consume();
        cur.push(match v {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            _ => Node::Identifier(v.to_string()),
        });
    }

    fn parse_recursive(&mut self, cur: &mut Vec<Node>) -> PResult<()> {
        if cur.last() == Some(&Node::Recursive) {
            return Err("invalid multiple recursive descent".into());
        }
        self.pos += 2;
        self.consume();
        cur.push(Node::Recursive);
        if is_alphanumeric(self.peek()) {
            self.parse_field(cur);
        }
        Ok(())
    }

    fn parse_number(&mut self, cur: &mut Vec<Node>) -> PResult<()> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.next();
        }
        loop {
            match self.next() {
                Some(c) if c == '.' || c.is_numeric() => {}
                _ => {
                    self.backup();
                    break;
                }
            }
        }
        let v = self.consume();
        if let Ok(i) = v.parse::<i64>() {
            cur.push(Node::Int(i));
        } else if let Ok(f) = v.parse::<f64>() {
            cur.push(Node::Float(f));
        } else {
            return Err(format!("cannot parse number {v}"));
        }
        Ok(())
    }

    fn parse_array(&mut self, cur: &mut Vec<Node>) -> PResult<()> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated array".into()),
                Some(']') => break,
                _ => {}
            }
        }
        let text = self.consume();
        let mut text = &text[1..text.len() - 1];
        if text == "*" {
            text = ":";
        }
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 1 {
            let mut union = Vec::new();
            for s in parts {
                union.push(parse_action(&format!("[{}]", s.trim_matches(' ')))?);
            }
            cur.push(Node::Union(union));
            return Ok(());
        }
        if text.len() >= 2
            && text.starts_with('\'')
            && text.ends_with('\'')
            && !text[1..text.len() - 1].contains('\'')
        {
            cur.extend(parse_action(&format!(".{}", &text[1..text.len() - 1]))?);
            return Ok(());
        }
        let groups = slice_groups(text).ok_or_else(|| format!("invalid array index {text}"))?;
        let mut params = [Param::default(); 3];
        for (i, g) in groups.iter().enumerate() {
            match g {
                Some(g) if !g.is_empty() => {
                    let v = if i > 0 { &g[1..] } else { &g[..] };
                    if i > 0 && v.is_empty() {
                        params[i].known = false;
                    } else {
                        params[i].known = true;
                        params[i].value = v
                            .parse::<i64>()
                            .map_err(|_| format!("array index {v} is not a number"))?;
                    }
                }
                _ => {
                    if i == 1 {
                        params[1].known = true;
                        params[1].value = params[0].value + 1;
                        params[1].derived = true;
                    }
                }
            }
        }
        cur.push(Node::Array(params));
        Ok(())
    }

    fn parse_filter(&mut self, cur: &mut Vec<Node>) -> PResult<()> {
        self.pos += 3;
        self.consume();
        let (mut begin, mut end, mut pair) = (false, false, '\0');
        loop {
            let r = self.next();
            match r {
                None | Some('\n') => return Err("unterminated filter".into()),
                Some(q @ ('"' | '\'')) => {
                    if !begin {
                        begin = true;
                        pair = q;
                        continue;
                    }
                    if self.input.as_bytes()[self.pos - 2] != b'\\' && q == pair {
                        end = true;
                    }
                }
                Some(')') if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err("unclosed array expect ]".into());
        }
        let text = self.consume();
        let text = &text[..text.len() - 2];
        match split_filter(text) {
            None => cur.push(Node::Filter {
                left: parse_action(text)?,
                right: Vec::new(),
                op: "exists".into(),
            }),
            Some((l, op, r)) => cur.push(Node::Filter {
                left: parse_action(l)?,
                right: parse_action(r)?,
                op: op.into(),
            }),
        }
        Ok(())
    }

    fn parse_quote(&mut self, cur: &mut Vec<Node>, end: char) -> PResult<()> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated quoted string".into()),
                Some(c) if c == end && self.input.as_bytes()[self.pos - 2] != b'\\' => break,
                _ => {}
            }
        }
        let v = self.consume();
        let s = unquote(v).ok_or_else(|| format!("unquote string {v} error invalid syntax"))?;
        cur.push(Node::Text(s));
        Ok(())
    }

    fn parse_field(&mut self, cur: &mut Vec<Node>) {
        self.consume();
        loop {
            let r = self.next();
            if r == Some('\\') {
                self.next();
            } else if is_terminator(r) {
                self.backup();
                break;
            }
        }
        let v = self.consume();
        cur.push(if v == "*" {
            Node::Wildcard
        } else {
            Node::Field(v.replace('\\', ""))
        });
    }
}

/// parser.go `parseAction`: `text` parsed as one action, its nodes.
fn parse_action(text: &str) -> PResult<Vec<Node>> {
    let mut p = Parser::new(text);
    let wrapped = format!("{{{text}}}");
    p.input = &wrapped;
    p.parse_text()?;
    Ok(match p.root.into_iter().next() {
        Some(Top::List(l)) => l,
        _ => Vec::new(),
    })
}

/// The three groups of client-go's `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`, or `None`.
fn slice_groups(text: &str) -> Option<[Option<String>; 3]> {
    fn part(s: &str) -> usize {
        let b = s.as_bytes();
        let mut i = usize::from(b.first() == Some(&b'-'));
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    }
    let mut rest = text;
    let n = part(rest);
    let first = rest[..n].to_string();
    rest = &rest[n..];
    let mut out = [Some(first), None, None];
    for slot in out.iter_mut().skip(1) {
        if let Some(r) = rest.strip_prefix(':') {
            let n = part(r);
            *slot = Some(format!(":{}", &r[..n]));
            rest = &r[n..];
        }
    }
    rest.is_empty().then_some(out)
}

/// client-go's `^([^!<>=]+)([!<>=]+)(.+?)$` on a filter body.
fn split_filter(text: &str) -> Option<(&str, &str, &str)> {
    let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
    let l = text.find(is_op)?;
    if l == 0 {
        return None;
    }
    let after = &text[l..];
    let mut o = after.find(|c: char| !is_op(c)).unwrap_or(after.len());
    if o == after.len() {
        // The operator run reaches the end: the regexp gives its last character to the right.
        if o < 2 {
            return None;
        }
        o -= 1;
    }
    Some((&text[..l], &after[..o], &after[o..]))
}

/// Go's `strconv` unquoting of a `"…"` or `'…'` literal (parser.go `UnquoteExtend`).
fn unquote(s: &str) -> Option<String> {
    let quote = s.chars().next()?;
    if s.len() < 2 || !s.ends_with(quote) || !(quote == '"' || quote == '\'') {
        return None;
    }
    let body = &s[1..s.len() - 1];
    if !body.contains('\\') && !body.contains(quote) {
        return Some(body.to_string());
    }
    let mut out = String::new();
    let mut it = body.chars().peekable();
    while let Some(c) = it.next() {
        if c == quote {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = it.next()?;
        let hex = |it: &mut std::iter::Peekable<std::str::Chars<'_>>, n: usize| {
            let h: String = (0..n).filter_map(|_| it.next()).collect();
            (h.len() == n).then(|| u32::from_str_radix(&h, 16).ok())?
        };
        match e {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            '\'' | '"' if e == quote => out.push(e),
            'x' => out.push(char::from_u32(hex(&mut it, 2)?)?),
            'u' => out.push(char::from_u32(hex(&mut it, 4)?)?),
            'U' => out.push(char::from_u32(hex(&mut it, 8)?)?),
            '0'..='7' => {
                let mut v = e.to_digit(8)?;
                for _ in 0..2 {
                    v = v * 8 + it.next()?.to_digit(8)?;
                }
                if v > 255 {
                    return None;
                }
                out.push(char::from_u32(v)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// How a template's results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    /// `--allow-missing-template-keys` (kubectl's default `true`): a missing key is skipped
    /// instead of failing.
    pub allow_missing_keys: bool,
    /// `-o jsonpath-as-json`: each action's results printed as one indented JSON array.
    pub as_json: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            allow_missing_keys: true,
            as_json: false,
        }
    }
}

struct Exec {
    allow_missing: bool,
    in_range: usize,
    begin: bool,
    end: bool,
}

type Vals<'v> = Vec<Cow<'v, Value>>;

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

impl Template {
    /// Parses `text` as client-go's parser does.
    ///
    /// # Errors
    /// [`JsonPathError::Parse`] naming client-go's reason and the character where parsing
    /// stopped.
    pub fn parse(text: &str) -> Result<Template, JsonPathError> {
        let mut p = Parser::new(text);
        match p.parse_text() {
            Ok(()) => Ok(Template {
                source: text.to_string(),
                root: p.root,
            }),
            Err(reason) => Err(JsonPathError::Parse {
                template: text.to_string(),
                reason,
                position: text[..p.pos.min(text.len())].chars().count().max(1),
            }),
        }
    }

    /// The results of each top-level element (jsonpath.go `FindResults`), one vector per
    /// printed group.
    ///
    /// # Errors
    /// [`JsonPathError::Execute`] when the template does not fit `data`.
    pub fn find_results(
        &self,
        data: &Value,
        allow_missing_keys: bool,
    ) -> Result<Vec<Vec<Value>>, JsonPathError> {
        let mut ex = Exec {
            allow_missing: allow_missing_keys,
            in_range: 0,
            begin: false,
            end: false,
        };
        find(&mut ex, &self.root, data)
            .map(|(r, _)| r)
            .map_err(|reason| JsonPathError::Execute {
                template: self.source.clone(),
                reason,
            })
    }

    /// The template applied to `data`, printed as kubectl prints it (jsonpath.go
    /// `Execute`/`PrintResults`); no newline is added.
    ///
    /// # Errors
    /// [`JsonPathError::Execute`] when the template does not fit `data`.
    pub fn render(&self, data: &Value, opts: PrintOptions) -> Result<String, JsonPathError> {
        let groups = self.find_results(data, opts.allow_missing_keys)?;
        let mut out = String::new();
        for g in groups {
            if opts.as_json {
                out.push_str(&go_json_indent(&Value::Array(g), 0));
                out.push('\n');
                continue;
            }
            for (i, v) in g.iter().enumerate() {
                match v {
                    Value::Object(_) | Value::Array(_) => out.push_str(&go_json(v)),
                    other => out.push_str(&go_text(other)),
                }
                if i + 1 != g.len() {
                    out.push(' ');
                }
            }
        }
        Ok(out)
    }
}

/// jsonpath.go `FindResults` over `nodes` with `data` as the root; also returns the index of
/// the `{end}` that closed the current range, if one did.
fn find(ex: &mut Exec, nodes: &[Top], data: &Value) -> PResult<(Vec<Vec<Value>>, Option<usize>)> {
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

/// Go's `fmt.Print` of a decoded JSON value (`%v`): used for jsonpath text and the cells of
/// custom-columns (maps as `map[k:v]` with sorted keys, arrays as `[a b]`, null as `<nil>`
/// inside them).
pub fn go_sprint(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(go_sprint).collect::<Vec<_>>().join(" ")
        ),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{k}:{}", go_sprint(&m[*k])))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
        other => go_text(other),
    }
}

/// A scalar as jsonpath.go `evalToText` prints it (`null` for a JSON null).
fn go_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.to_string(),
            (_, Some(u)) => u.to_string(),
            _ => go_float_g(n.as_f64().unwrap_or(0.0)),
        },
        other => go_sprint(other),
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` (what `%v` prints).
fn go_float_g(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    let e = format!("{f:e}"); // shortest digits: "1.5e6"
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mant}e{sign}{:02}", exp.abs());
    }
    format!("{f}")
}

/// Go's `strconv.FormatFloat(f, 'f' or 'e', -1, 64)` as `encoding/json` writes a float64.
fn go_json_float(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        let e = format!("{f:e}");
        let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

fn go_json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn go_json_scalar(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (_, Some(u)) => out.push_str(&u.to_string()),
            _ => out.push_str(&go_json_float(n.as_f64().unwrap_or(0.0))),
        },
        Value::String(s) => go_json_str(s, out),
        _ => {}
    }
}

fn sorted(m: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut kv: Vec<(&String, &Value)> = m.iter().collect();
    kv.sort_by(|a, b| a.0.cmp(b.0));
    kv
}

/// Go's `json.Marshal` of a decoded JSON value: compact, map keys sorted, HTML characters
/// escaped.
pub fn go_json(v: &Value) -> String {
    let mut out = String::new();
    fn w(v: &Value, out: &mut String) {
        match v {
            Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    w(x, out);
                }
                out.push(']');
            }
            Value::Object(m) => {
                out.push('{');
                for (i, (k, x)) in sorted(m).into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    go_json_str(k, out);
                    out.push(':');
                    w(x, out);
                }
                out.push('}');
            }
            s => go_json_scalar(s, out),
        }
    }
    w(v, &mut out);
    out
}

/// Go's `json.MarshalIndent(v, "", "    ")` of a decoded JSON value (`-o jsonpath-as-json`).
fn go_json_indent(v: &Value, depth: usize) -> String {
    let pad = |d: usize| "    ".repeat(d);
    match v {
        Value::Array(a) if !a.is_empty() => {
            let items: Vec<String> = a
                .iter()
                .map(|x| format!("{}{}", pad(depth + 1), go_json_indent(x, depth + 1)))
                .collect();
            format!("[\n{}\n{}]", items.join(",\n"), pad(depth))
        }
        Value::Object(m) if !m.is_empty() => {
            let items: Vec<String> = sorted(m)
                .into_iter()
                .map(|(k, x)| {
                    let mut key = String::new();
                    go_json_str(k, &mut key);
                    format!("{}{key}: {}", pad(depth + 1), go_json_indent(x, depth + 1))
                })
                .collect();
            format!("{{\n{}\n{}}}", items.join(",\n"), pad(depth))
        }
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
        s => {
            let mut out = String::new();
            go_json_scalar(s, &mut out);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pods() -> Value {
        json!({"kind": "List", "items": [
            {"metadata": {"name": "a", "labels": {"tier": "fe", "app": "web"}}, "status": {"phase": "Running"},
             "spec": {"containers": [{"name": "c1", "image": "i1"}, {"name": "c2", "image": "i2"}]}},
            {"metadata": {"name": "b"}, "status": {"phase": "Pending"}, "spec": {"containers": [{"name": "d", "image": "j"}]}}
        ]})
    }

    fn run(t: &str) -> Result<String, JsonPathError> {
        Template::parse(t)?.render(&pods(), PrintOptions::default())
    }

    #[test]
    fn fields_wildcards_and_literals_print_as_kubectl() {
        assert_eq!(run("{.items[*].metadata.name}").unwrap(), "a b");
        assert_eq!(run("{.kind}").unwrap(), "List");
        assert_eq!(
            run("name: {.items[0].metadata.name}\n").unwrap(),
            "name: a\n"
        );
        assert_eq!(
            run("{.items[0].metadata.labels}").unwrap(),
            r#"{"app":"web","tier":"fe"}"#
        );
        assert_eq!(run(r#"{.items[1].metadata.name}{"\n"}"#).unwrap(), "b\n");
        assert_eq!(run("{$.items[-1:].metadata.name}").unwrap(), "b");
        assert_eq!(run("{.items[0:2:1].metadata.name}").unwrap(), "a b");
        assert_eq!(run("{.items[0,1].metadata.name}").unwrap(), "a b");
        assert_eq!(run("{.items[0]['metadata'].name}").unwrap(), "a");
        assert_eq!(run("{..image}").unwrap(), "i1 i2 j");
        assert_eq!(run("{.missing}").unwrap(), "");
    }

    #[test]
    fn range_and_filters_follow_client_go() {
        assert_eq!(
            run(r#"{range .items[*]}{.metadata.name}={.status.phase}{"\n"}{end}"#).unwrap(),
            "a=Running\nb=Pending\n"
        );
        assert_eq!(
            run(r#"{range .items[*]}[{range .spec.containers[*]}{.name},{end}]{end}"#).unwrap(),
            "[c1,c2,][d,]"
        );
        assert_eq!(
            run(r#"{.items[?(@.status.phase=="Pending")].metadata.name}"#).unwrap(),
            "b"
        );
        assert_eq!(
            run("{.items[?(@.metadata.labels)].metadata.name}").unwrap(),
            "a"
        );
        assert_eq!(
            run("{.items[?(@.metadata.name!='a')].metadata.name}").unwrap(),
            "b"
        );
    }

    #[test]
    fn jsonpath_as_json_prints_one_indented_array_per_action() {
        let t = Template::parse("{.items[*].metadata.name}").unwrap();
        let opts = PrintOptions {
            as_json: true,
            ..PrintOptions::default()
        };
        assert_eq!(
            t.render(&pods(), opts).unwrap(),
            "[\n    \"a\",\n    \"b\"\n]\n"
        );
        let t = Template::parse("{.nope}").unwrap();
        assert_eq!(t.render(&pods(), opts).unwrap(), "[]\n");
    }

    #[test]
    fn unterminated_array_is_a_parse_error_with_a_position() {
        let e = Template::parse("{.items[").unwrap_err();
        assert_eq!(
            e,
            JsonPathError::Parse {
                template: "{.items[".into(),
                reason: "unterminated array".into(),
                position: 8
            }
        );
        for bad in [
            "{.a",
            "{.a[?(@.x==\"y\"}",
            "{\"abc}",
            "{.a[x]}",
            "{....a}",
            "{%}",
        ] {
            assert!(
                matches!(Template::parse(bad), Err(JsonPathError::Parse { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn out_of_bounds_index_and_missing_key_without_allowance_are_execution_errors() {
        let e = run("{.items[5]}").unwrap_err();
        assert!(
            e.to_string()
                .contains("array index out of bounds: index 5, length 2"),
            "{e}"
        );
        let t = Template::parse("{.items[0].metadata.nope}").unwrap();
        let e = t
            .render(
                &pods(),
                PrintOptions {
                    allow_missing_keys: false,
                    as_json: false,
                },
            )
            .unwrap_err();
        assert!(e.to_string().contains("nope is not found"), "{e}");
        assert!(run("{end}").is_err());
    }

    #[test]
    fn go_formats_of_values() {
        assert_eq!(
            go_sprint(&json!({"b": [1, "x"], "a": null})),
            "map[a:<nil> b:[1 x]]"
        );
        assert_eq!(
            go_json(&json!({"b": "<&>", "a": 1.5})),
            r#"{"a":1.5,"b":"\u003c\u0026\u003e"}"#
        );
        assert_eq!(go_float_g(1_000_000.0), "1e+06");
        assert_eq!(go_float_g(0.5), "0.5");
        assert_eq!(unquote(r#""a\tb""#).as_deref(), Some("a\tb"));
        assert_eq!(
            slice_groups("1:-2"),
            Some([Some("1".into()), Some(":-2".into()), None])
        );
        assert_eq!(split_filter("@.a==\"x\""), Some(("@.a", "==", "\"x\"")));
    }
}
