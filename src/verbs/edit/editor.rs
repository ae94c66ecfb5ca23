//! Running the user's editor on a private temporary file, as kubectl does
//! (`pkg/cmd/util/editor/editor.go`, `launcher_others.go`): `KUBE_EDITOR`, then `EDITOR`,
//! else `vi`; a value with spaces is split on spaces, or run through `$SHELL -c` (default
//! `/bin/bash`) when it holds a quote or backslash.

use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The largest edited file read back, in bytes: the API server's default
/// `--max-request-body-bytes` (3 MiB, k8s.io/apiserver `MaxRequestBodyBytes`); a patch made
/// from a larger file could not be sent anyway, and the cap bounds the memory used.
pub const MAX_EDITED_BYTES: u64 = 3 * 1024 * 1024;

/// The editor command: its argv, and whether the last element is a shell command line to
/// which the file path is appended quoted (kubectl's `Editor{Args, Shell}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    /// argv before the file path.
    pub args: Vec<String>,
    /// `args` is `[shell, -c, line]`.
    pub shell: bool,
}

impl Editor {
    /// The editor named by `kube_editor`, then `editor` (empty counts as unset), else `vi`,
    /// split as kubectl's `defaultEnvEditor` does; `shell` is `$SHELL` (default `/bin/bash`).
    pub fn from_env(
        kube_editor: Option<&str>,
        editor: Option<&str>,
        shell: Option<&str>,
    ) -> Editor {
        let chosen = [kube_editor, editor]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty())
            .unwrap_or("vi");
        if !chosen.contains(' ') {
            return Editor {
                args: vec![chosen.to_string()],
                shell: false,
            };
        }
        if !chosen.contains(['"', '\'', '\\']) {
            return Editor {
                args: chosen.split(' ').map(str::to_string).collect(),
                shell: false,
            };
        }
        let sh = shell.filter(|s| !s.is_empty()).unwrap_or("/bin/bash");
        Editor {
            args: vec![sh.to_string(), "-c".into(), chosen.to_string()],
            shell: true,
        }
    }

    /// The argv run for `path`: the path appended, or for a shell line appended to the line
    /// double-quoted (kubectl's `%q`).
    pub fn argv(&self, path: &Path) -> Vec<String> {
        let mut args = self.args.clone();
        let p = path.display().to_string();
        match (self.shell, args.last_mut()) {
            (true, Some(last)) => {
                *last = format!("{last} {}", go_quote(&p));
            }
            _ => args.push(p),
        }
        args
    }

    /// The editor as kubectl names it in its messages (`strings.Join(e.Args, " ")`).
    pub fn display(&self) -> String {
        self.args.join(" ")
    }
}

/// Go's `%q` of a path: double quotes, `"` and `\` escaped.
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Why the editor round failed, nothing sent.
#[derive(Debug, thiserror::Error)]
pub enum EditorError {
    /// The editor could not be started (kubectl's wording).
    #[error("unable to launch the editor {}", crate::base::echo::quoted(.0))]
    NotFound(String),
    /// The editor exited non-zero or was killed (kubectl's wording).
    #[error("there was a problem with the editor {}", crate::base::echo::quoted(.0))]
    Failed(String),
    /// The edited file is larger than [`MAX_EDITED_BYTES`].
    #[error(
        "the edited file is {0} bytes, more than the API server accepts in one request ({MAX_EDITED_BYTES} bytes); nothing was sent"
    )]
    TooLarge(u64),
    /// The temporary file could not be written or read back.
    #[error("cannot use the temporary file for the editor: {0}")]
    Io(String),
    /// The edited file is not UTF-8.
    #[error("the edited file is not UTF-8 text; nothing was sent")]
    NotText,
}

/// A private directory (0700) holding the file the editor works on (0600); removed with
/// everything in it when dropped, so a Secret's values do not outlive the command.
#[derive(Debug)]
pub struct Workspace {
    dir: PathBuf,
    file: PathBuf,
}

impl Workspace {
    /// Creates the directory under the system temporary directory; the file is named like
    /// kubectl's (`kubectl-myops-edit-….yaml` or `.json`).
    ///
    /// # Errors
    /// [`EditorError::Io`] when the directory cannot be created.
    pub fn new(json: bool) -> Result<Workspace, EditorError> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir =
            std::env::temp_dir().join(format!("kubectl-myops-edit-{}-{stamp}", std::process::id()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map_err(|e| EditorError::Io(e.to_string()))?;
        let ext = if json { "json" } else { "yaml" };
        let file = dir.join(format!("kubectl-myops-edit-{stamp}.{ext}"));
        Ok(Workspace { dir, file })
    }

    /// Writes `text` to the file (created 0600, replaced if present), runs `editor` on it
    /// with the terminal inherited, and reads it back — at most [`MAX_EDITED_BYTES`].
    ///
    /// # Errors
    /// [`EditorError`]: the editor missing or failing, the file too large or not UTF-8.
    pub fn round(&self, editor: &Editor, text: &str) -> Result<String, EditorError> {
        let io = |e: std::io::Error| EditorError::Io(e.to_string());
        let _ = std::fs::remove_file(&self.file);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&self.file)
            .map_err(io)?;
        f.write_all(text.as_bytes()).map_err(io)?;
        drop(f);
        let argv = editor.argv(&self.file);
        let status = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .status();
        match status {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(EditorError::NotFound(editor.display()));
            }
            Err(_) => return Err(EditorError::Failed(editor.display())),
            Ok(s) if !s.success() => return Err(EditorError::Failed(editor.display())),
            Ok(_) => {}
        }
        let f = std::fs::File::open(&self.file).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        if len > MAX_EDITED_BYTES {
            return Err(EditorError::TooLarge(len));
        }
        let mut bytes = Vec::new();
        f.take(MAX_EDITED_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_EDITED_BYTES {
            return Err(EditorError::TooLarge(bytes.len() as u64));
        }
        String::from_utf8(bytes).map_err(|_| EditorError::NotText)
    }

    /// Keeps a copy of `text` where the user can find it after the command (kubectl's
    /// "A copy of your changes has been stored to …"): a new 0600 file in the system
    /// temporary directory; returns its path.
    ///
    /// # Errors
    /// The I/O error's sentence.
    pub fn keep(&self, text: &str) -> Result<PathBuf, String> {
        let name = self
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "kubectl-myops-edit.yaml".into());
        let path = std::env::temp_dir().join(name);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| e.to_string())?;
        f.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        Ok(path)
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_is_chosen_and_split_as_kubectl_does() {
        let e = Editor::from_env(Some(""), Some("nano"), None);
        assert_eq!(e.args, ["nano"]);
        assert_eq!(Editor::from_env(None, None, None).args, ["vi"]);
        let e = Editor::from_env(Some("code --wait"), Some("nano"), None);
        assert_eq!(e.args, ["code", "--wait"]);
        assert_eq!(
            e.argv(Path::new("/t/f.yaml")),
            ["code", "--wait", "/t/f.yaml"]
        );
        let e = Editor::from_env(Some("emacs -nw 'x y'"), None, Some("/bin/sh"));
        assert!(e.shell);
        assert_eq!(
            e.argv(Path::new("/t/f.yaml")),
            ["/bin/sh", "-c", "emacs -nw 'x y' \"/t/f.yaml\""]
        );
        assert_eq!(
            Editor::from_env(Some("a \\b"), None, None).args[0],
            "/bin/bash"
        );
    }

    #[test]
    fn the_workspace_is_private_and_removed() {
        let w = Workspace::new(false).unwrap();
        let dir = w.dir.clone();
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
            0o700
        );
        let seen = w
            .round(
                &Editor {
                    args: vec!["true".into()],
                    shell: false,
                },
                "a: 1\n",
            )
            .unwrap();
        assert_eq!(seen, "a: 1\n");
        assert_eq!(
            std::fs::metadata(&w.file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        drop(w);
        assert!(!dir.exists());
    }
}
