//! The template parser: client-go's `parser.go`, step by step, from template text to the
//! nodes the evaluator walks.

/// One parsed element inside `{…}` (client-go node.go).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
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
pub(super) struct Param {
    pub(super) value: i64,
    pub(super) known: bool,
    pub(super) derived: bool,
}

/// A top-level element: literal text, or an action `{…}`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Top {
    Text(String),
    List(Vec<Node>),
}

pub(super) struct Parser<'a> {
    input: &'a str,
    pub(super) pos: usize,
    start: usize,
    width: usize,
    pub(super) root: Vec<Top>,
}

pub(super) type PResult<T> = Result<T, String>;

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
    pub(super) fn new(input: &'a str) -> Parser<'a> {
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
    pub(super) fn parse_text(&mut self) -> PResult<()> {
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
pub(super) fn parse_action(text: &str) -> PResult<Vec<Node>> {
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
pub(super) fn slice_groups(text: &str) -> Option<[Option<String>; 3]> {
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
pub(super) fn split_filter(text: &str) -> Option<(&str, &str, &str)> {
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
pub(super) fn unquote(s: &str) -> Option<String> {
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
