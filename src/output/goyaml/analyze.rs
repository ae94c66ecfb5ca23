//! Which scalar styles a string allows (go-yaml's `yaml_emitter_analyze_scalar`), and the
//! character classes the emitter tests.

/// A line break to the emitter (NEL, U+0085, is printed as an ordinary character by the
/// go-yaml fork kubectl uses: checked against kubectl 1.36).
pub(super) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{2028}' | '\u{2029}')
}

/// go-yaml's `is_printable` (with unicode output on, as sigs.k8s.io/yaml sets it).
pub(super) fn printable(c: char) -> bool {
    let v = c as u32;
    v == 0x0A
        || v == 0x85
        || (0x20..=0x7E).contains(&v)
        || (0xA0..=0xD7FF).contains(&v)
        || ((0xE000..=0xFFFD).contains(&v) && v != 0xFEFF)
}

pub(super) struct Analysis {
    pub(super) block_plain_allowed: bool,
    pub(super) single_quoted_allowed: bool,
    pub(super) block_allowed: bool,
}

/// go-yaml's `yaml_emitter_analyze_scalar`, for block context.
pub(super) fn analyze(s: &str) -> Analysis {
    let mut a = Analysis {
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if s.is_empty() {
        a.block_plain_allowed = false;
        a.block_allowed = false;
        return a;
    }
    let (mut block_ind, mut line_breaks, mut special) = (false, false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut prev_space, mut prev_break) = (false, false);
    if s.starts_with("---") || s.starts_with("...") {
        block_ind = true;
    }
    let chars: Vec<char> = s.chars().collect();
    let blankz = |i: usize| {
        chars
            .get(i)
            .is_none_or(|c| *c == ' ' || *c == '\t' || is_break(*c))
    };
    let mut preceded_by_ws = true;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_ws = blankz(i + 1);
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_ind = true,
                '?' | ':' if followed_by_ws => block_ind = true,
                '-' if followed_by_ws => block_ind = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_ws => block_ind = true,
                '#' if preceded_by_ws => block_ind = true,
                _ => {}
            }
        }
        if !printable(c) || c == '\u{feff}' {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == chars.len() {
                trailing_space = true;
            }
            if prev_break {
                break_space = true;
            }
            prev_space = true;
            prev_break = false;
        } else if is_break(c) {
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == chars.len() {
                trailing_break = true;
            }
            if prev_space {
                space_break = true;
            }
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = c == ' ' || c == '\t' || is_break(c);
    }
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_ind {
        a.block_plain_allowed = false;
    }
    a
}
