//! What the helper answers, in kubectl's plugin-completion protocol: candidates, then a
//! [`directive`](super::directive).

/// One completion candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The word.
    pub value: String,
    /// Shown next to it by shells that show descriptions (zsh, fish).
    pub description: Option<String>,
}

impl Candidate {
    /// A candidate.
    pub fn new(value: impl Into<String>, description: Option<String>) -> Candidate {
        Candidate {
            value: value.into(),
            description,
        }
    }
}

/// The helper's answer: candidates and a directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The candidates, in order.
    pub candidates: Vec<Candidate>,
    /// The cobra ShellCompDirective.
    pub directive: u32,
}

impl Reply {
    /// The protocol text: `value[\tdescription]` lines, then `:<directive>`.
    pub fn render(&self) -> String {
        let clean = |s: &str| s.replace(['\n', '\r', '\t'], " ");
        let mut out = String::new();
        for c in &self.candidates {
            out.push_str(&clean(&c.value));
            if let Some(d) = &c.description {
                out.push('\t');
                out.push_str(&clean(d));
            }
            out.push('\n');
        }
        out.push_str(&format!(":{}\n", self.directive));
        out
    }
}
