//! Path patterns: the `deny`/`allow` paths of a policy rule (JSON Pointers with `*` and a
//! trailing `/**`), parsed once and matched against the concrete pointers of a diff.

/// One segment of a path pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Seg {
    /// `*`: any one segment.
    Any,
    /// A literal segment (unescaped).
    Key(String),
}

/// A parsed `deny`/`allow` path: its segments and whether it ended in `/**`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    segs: Vec<Seg>,
    below: bool,
}

/// Parses one pattern (`/data/*`, `/metadata/annotations/example.com~1owner`, `/spec/**`).
///
/// # Errors
/// A sentence saying what to write instead: a path that does not start with `/`, a `~` not
/// followed by `0` or `1` (RFC 6901 §3), `**` anywhere but the last segment, or a `*` inside
/// a segment (a `*` matches whole segments only).
pub fn parse_pattern(text: &str) -> Result<PathPattern, String> {
    let quoted = crate::base::echo::quoted(text);
    let Some(rest) = text.strip_prefix('/') else {
        return Err(format!(
            "path {quoted} is not a JSON Pointer: start it with /, e.g. /data/* or /spec/**"
        ));
    };
    let raw: Vec<&str> = rest.split('/').collect();
    let mut segs = Vec::new();
    let mut below = false;
    for (i, token) in raw.iter().enumerate() {
        match *token {
            "**" if i + 1 == raw.len() => below = true,
            "**" => {
                return Err(format!(
                    "path {quoted}: `**` may only be the last segment (`/x/**` is everything below /x); use `*` for one segment"
                ));
            }
            "*" => segs.push(Seg::Any),
            t if t.contains('*') => {
                return Err(format!(
                    "path {quoted}: `*` matches a whole segment only; write it alone between slashes, e.g. /data/*"
                ));
            }
            t => segs.push(Seg::Key(unescape(t).ok_or_else(|| {
                format!(
                    "path {quoted}: a `~` must be followed by 0 (for ~) or 1 (for /), as RFC 6901 says; write a / inside a key as ~1"
                )
            })?)),
        }
    }
    Ok(PathPattern { segs, below })
}

/// An RFC 6901 reference token unescaped (`~1` → `/`, `~0` → `~`); `None` for any other `~`.
fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A concrete pointer (as [`crate::rules::diff::operations`] writes them) split into unescaped
/// segments; `""` is the whole document (no segments).
pub fn split_pointer(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Segments joined back into an RFC 6901 pointer (`~` → `~0`, `/` → `~1`).
pub fn join_pointer(segs: &[String]) -> String {
    segs.iter()
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect()
}

impl PathPattern {
    /// The segments a path must match, a trailing `/**` as one more `*`: "strictly below
    /// `/x`" is "at or below some child of `/x`" (how the CEL generator walks a pattern).
    pub(super) fn segments(&self) -> Vec<Seg> {
        let mut segs = self.segs.clone();
        if self.below {
            segs.push(Seg::Any);
        }
        segs
    }

    fn seg_matches(seg: &Seg, token: &str) -> bool {
        match seg {
            Seg::Any => true,
            Seg::Key(k) => k == token,
        }
    }

    /// Whether the first `path.len()` segments of the pattern accept `path` (a prefix test).
    fn prefix_accepts(&self, path: &[String]) -> bool {
        self.segs
            .iter()
            .zip(path)
            .all(|(s, t)| Self::seg_matches(s, t))
    }

    /// Whether `path` is at or below a path this pattern matches (`/**`: strictly below).
    pub fn covers(&self, path: &[String]) -> bool {
        let min = self.segs.len() + usize::from(self.below);
        path.len() >= min && self.prefix_accepts(path)
    }

    /// Whether something this pattern matches lies strictly below `path`.
    pub fn lies_below(&self, path: &[String]) -> bool {
        let min = self.segs.len() + usize::from(self.below);
        path.len() < min && self.prefix_accepts(path)
    }

    /// Whether everything this pattern matches is server bookkeeping that the structured
    /// diff leaves out (`/metadata/resourceVersion`, `/metadata/managedFields`,
    /// `/metadata/generation`, [`crate::rules::diff::operations`]), so a deny of it never refuses.
    pub fn is_bookkeeping(&self) -> bool {
        matches!(self.segs.as_slice(), [Seg::Key(m), Seg::Key(f), ..]
            if m == "metadata" && matches!(f.as_str(), "resourceVersion" | "managedFields" | "generation"))
    }

    /// Whether this pattern is under a Secret's `stringData`, which the API server never
    /// stores: it merges it into `data` on write (core/v1 Secret API reference: "stringData
    /// … is never output when reading from the API"), so neither the before-state nor the
    /// dry run's answer has it, and a deny of it never refuses.
    pub fn is_write_only_secret_field(&self) -> bool {
        matches!(self.segs.first(), Some(Seg::Key(f)) if f == "stringData")
    }

    /// Whether the pattern starts with a top-level field whose name is empty (`/` or
    /// `//x`): RFC 6901 reads `/` as the key `""`, not as the whole document.
    pub(super) fn names_empty_top_level_field(&self) -> bool {
        matches!(self.segs.first(), Some(Seg::Key(k)) if k.is_empty())
    }

    /// Whether some path is matched (at or below) by both patterns.
    pub fn overlaps(&self, other: &PathPattern) -> bool {
        self.segs
            .iter()
            .zip(&other.segs)
            .all(|(a, b)| match (a, b) {
                (Seg::Key(x), Seg::Key(y)) => x == y,
                _ => true,
            })
    }

    /// Whether every path `inner` matches (at or below) is also matched by `self`.
    pub fn contains(&self, inner: &PathPattern) -> bool {
        let min_self = self.segs.len() + usize::from(self.below);
        let min_inner = inner.segs.len() + usize::from(inner.below);
        min_inner >= min_self
            && self.segs.iter().zip(&inner.segs).all(|(a, b)| match (a, b) {
                (Seg::Any, _) => true,
                (Seg::Key(x), Seg::Key(y)) => x == y,
                (Seg::Key(_), Seg::Any) => false,
            })
            // `/x/**` inside `/x/*` or `/x/a`: the segment after /x is any, never one key.
            && (self.segs.len() <= inner.segs.len()
                || matches!(self.segs[inner.segs.len()], Seg::Any))
    }
}
