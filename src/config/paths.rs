//! Where plugin.yaml comes from: the lookup order of docs/configuration.md.
//!
//! `--config`, then `$MYOPS_CONFIG`, then `~/.kube/plugins/myops/plugin.yaml`, then `plugin.yaml`
//! next to the real executable, then the compiled-in default. The executable's path is resolved
//! through symlinks because krew installs the binary under `~/.krew/store/…` and links it from
//! `~/.krew/bin`: the file that ships with the plugin sits next to the real binary, not the link.
//!
//! [`locate`] takes every input as a parameter (no env or filesystem globals besides existence
//! checks), so the order is unit-tested with temporary directories.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{ConfigError, PluginConfig, builtin, load};

/// The per-user plugin.yaml, relative to the home directory (docs/configuration.md).
pub const USER_FILE: &str = ".kube/plugins/myops/plugin.yaml";

/// Where the plugin.yaml in use came from, in lookup order (docs/configuration.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// `--config PATH`.
    Flag(PathBuf),
    /// `$MYOPS_CONFIG`.
    Env(PathBuf),
    /// `~/.kube/plugins/myops/plugin.yaml`.
    UserFile(PathBuf),
    /// `plugin.yaml` in the directory of the real (symlink-resolved) executable.
    NextToExecutable(PathBuf),
    /// The compiled-in copy of the repository's plugin.yaml.
    Builtin,
}

impl ConfigSource {
    /// The file to read, or `None` for [`ConfigSource::Builtin`].
    pub fn path(&self) -> Option<&Path> {
        match self {
            ConfigSource::Flag(p)
            | ConfigSource::Env(p)
            | ConfigSource::UserFile(p)
            | ConfigSource::NextToExecutable(p) => Some(p),
            ConfigSource::Builtin => None,
        }
    }
}

impl fmt::Display for ConfigSource {
    /// One line for `-v` output and `config validate`, e.g. `/x/plugin.yaml (from --config)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, why) = match self {
            ConfigSource::Flag(p) => (p, "from --config"),
            ConfigSource::Env(p) => (p, "from $MYOPS_CONFIG"),
            ConfigSource::UserFile(p) => (p, "user file"),
            ConfigSource::NextToExecutable(p) => (p, "next to the executable"),
            ConfigSource::Builtin => return f.write_str("built-in default plugin.yaml"),
        };
        write!(f, "{} ({why})", path.display())
    }
}

/// Chooses the plugin.yaml to use, in the order of docs/configuration.md.
///
/// `flag` (`--config`) and `env` (`$MYOPS_CONFIG`) are taken as given, even when the file does
/// not exist: the user asked for that file, so [`load_source`] reports the read error instead of
/// silently falling back. (Expanding `~/` in them is the caller's choice, see [`expand_tilde`].)
/// Then `<home>/.kube/plugins/myops/plugin.yaml` if it exists; then `plugin.yaml` in the
/// directory of `exe` after resolving symlinks with [`std::fs::canonicalize`] (the path as
/// given when it cannot be resolved) if it exists; else [`ConfigSource::Builtin`].
///
/// "Exists" means there is a directory entry of that name ([`present`]): a dangling symbolic
/// link, a FIFO or a directory named plugin.yaml is chosen, and [`load_source`] reports it,
/// instead of being skipped for the next file in the order — or for the built-in default,
/// whose boundary is wider than most users' own file.
pub fn locate(
    flag: Option<&Path>,
    env: Option<&Path>,
    home: Option<&Path>,
    exe: Option<&Path>,
) -> ConfigSource {
    if let Some(p) = flag {
        return ConfigSource::Flag(p.to_path_buf());
    }
    if let Some(p) = env {
        return ConfigSource::Env(p.to_path_buf());
    }
    if let Some(user) = home.map(|h| h.join(USER_FILE)).filter(|p| present(p)) {
        return ConfigSource::UserFile(user);
    }
    let beside_exe = exe.and_then(|e| {
        let real = std::fs::canonicalize(e).unwrap_or_else(|_| e.to_path_buf());
        real.parent().map(|dir| dir.join("plugin.yaml"))
    });
    match beside_exe.filter(|p| present(p)) {
        Some(p) => ConfigSource::NextToExecutable(p),
        None => ConfigSource::Builtin,
    }
}

/// True when `p` names a directory entry of any kind, a dangling symbolic link included
/// (`lstat` succeeds), unlike [`Path::exists`], which follows links.
fn present(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok()
}

/// Loads the plugin.yaml of `src`; [`ConfigSource::Builtin`] gives [`builtin`]. A file the user
/// named (`--config`, `$MYOPS_CONFIG`) goes through [`super::load_named`] (a FIFO is read once,
/// its writer done within `deadline`); a file found by the lookup through [`load`] (a FIFO
/// there is refused: nobody asked for it).
///
/// # Errors
/// As [`load`]: the file cannot be read, does not parse, or breaks a rule of
/// docs/configuration.md.
pub fn load_source(
    src: &ConfigSource,
    deadline: std::time::Duration,
) -> Result<PluginConfig, ConfigError> {
    match src {
        ConfigSource::Flag(path) | ConfigSource::Env(path) => super::load_named(path, deadline),
        _ => src.path().map_or_else(|| Ok(builtin()), load),
    }
}

/// Replaces a leading `~` or `~/` with `home` (`~user/` forms are left alone, as is everything
/// when `home` is `None`). Used for `crdDir` and paths given in environment variables, where no
/// shell expanded them.
pub fn expand_tilde(p: &Path, home: Option<&Path>) -> PathBuf {
    match (p.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) if rest.as_os_str().is_empty() => home.to_path_buf(),
        (Ok(rest), Some(home)) => home.join(rest),
        _ => p.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::ExitStatus;
    use std::fs;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn flag_then_env_win_even_when_missing() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        write(&home.join(USER_FILE), "name: user\n");
        let (flag, env) = (t.path().join("no-flag.yaml"), t.path().join("no-env.yaml"));
        let got = locate(Some(&flag), Some(&env), Some(&home), None);
        assert_eq!(got, ConfigSource::Flag(flag.clone()));
        assert_eq!(
            locate(None, Some(&env), Some(&home), None),
            ConfigSource::Env(env.clone())
        );
        let err = load_source(
            &ConfigSource::Env(env.clone()),
            crate::base::deadline::DEFAULT,
        )
        .unwrap_err();
        assert!(matches!(err, ConfigError::Read { .. }));
        assert_eq!(err.exit_status(), ExitStatus::Usage);
        let shown = err.to_string();
        assert_eq!(
            shown,
            format!(
                "{}: cannot read plugin.yaml: it does not exist; create it or fix the path",
                env.display()
            )
        );
        assert!(!shown.contains('\n'));
    }

    #[test]
    fn user_file_before_executable_dir() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let exe = t.path().join("bin/kubectl-myops");
        write(&exe, "");
        write(&exe.with_file_name("plugin.yaml"), "");
        assert!(matches!(
            locate(None, None, Some(&home), Some(&exe)),
            ConfigSource::NextToExecutable(_)
        ));
        write(&home.join(USER_FILE), "");
        let got = locate(None, None, Some(&home), Some(&exe));
        assert_eq!(
            got,
            ConfigSource::UserFile(home.join(".kube/plugins/myops/plugin.yaml"))
        );
    }

    #[cfg(unix)]
    #[test]
    fn executable_dir_is_resolved_through_symlinks() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("store/myops/v1/kubectl-myops");
        let link = t.path().join("krew-bin/kubectl-myops");
        write(&real, "");
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        // A plugin.yaml next to the link only is not the plugin's file.
        write(&link.with_file_name("plugin.yaml"), "");
        assert_eq!(locate(None, None, None, Some(&link)), ConfigSource::Builtin);
        write(&real.with_file_name("plugin.yaml"), "");
        let want = fs::canonicalize(real.with_file_name("plugin.yaml")).unwrap();
        assert_eq!(
            locate(None, None, None, Some(&link)),
            ConfigSource::NextToExecutable(want)
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_user_file_is_reported_not_skipped_for_a_wider_default() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let user = home.join(USER_FILE);
        fs::create_dir_all(user.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(t.path().join("gone.yaml"), &user).unwrap();
        let src = locate(None, None, Some(&home), None);
        assert_eq!(src, ConfigSource::UserFile(user.clone()));
        let shown = load_source(&src, crate::base::deadline::DEFAULT)
            .unwrap_err()
            .to_string();
        assert!(
            shown.starts_with(&format!(
                "{}: cannot read plugin.yaml: it is a dangling symbolic link to ",
                user.display()
            )),
            "{shown}"
        );
    }

    #[test]
    fn nothing_found_is_builtin() {
        let t = tempfile::tempdir().unwrap();
        let exe = t.path().join("kubectl-myops");
        write(&exe, "");
        assert_eq!(
            locate(None, None, Some(t.path()), Some(&exe)),
            ConfigSource::Builtin
        );
        assert_eq!(locate(None, None, None, None), ConfigSource::Builtin);
        assert_eq!(
            load_source(&ConfigSource::Builtin, crate::base::deadline::DEFAULT).unwrap(),
            builtin()
        );
        assert_eq!(ConfigSource::Builtin.path(), None);
        assert_eq!(
            ConfigSource::Builtin.to_string(),
            "built-in default plugin.yaml"
        );
    }

    #[test]
    fn load_source_reads_the_file() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("p.yaml");
        write(
            &p,
            "name: x\nverbs: [get]\nresources: [pods]\nscopes: [cluster]\n",
        );
        let src = ConfigSource::UserFile(p.clone());
        assert_eq!(src.to_string(), format!("{} (user file)", p.display()));
        assert_eq!(
            load_source(&src, crate::base::deadline::DEFAULT)
                .unwrap()
                .name,
            "x"
        );
    }

    #[test]
    fn tilde_expansion() {
        let h = Some(Path::new("/home/u"));
        assert_eq!(
            expand_tilde(Path::new("~/.kube/crds"), h),
            PathBuf::from("/home/u/.kube/crds")
        );
        assert_eq!(expand_tilde(Path::new("~"), h), PathBuf::from("/home/u"));
        assert_eq!(
            expand_tilde(Path::new("~bob/x"), h),
            PathBuf::from("~bob/x")
        );
        assert_eq!(
            expand_tilde(Path::new("/abs/~/x"), h),
            PathBuf::from("/abs/~/x")
        );
        assert_eq!(expand_tilde(Path::new("rel"), h), PathBuf::from("rel"));
        assert_eq!(expand_tilde(Path::new("~/x"), None), PathBuf::from("~/x"));
    }
}
