//! The pure half of `delete`: kubectl's argument rules (`k8s.io/kubectl/pkg/cmd/delete/
//! delete.go` `Complete`/`Validate`, cli-runtime's resource builder), `--timeout` as a Go
//! duration, and kubectl's output lines.

use std::time::Duration;

use kube::api::PropagationPolicy;

use crate::cli::{Cascade, DeleteArgs, DryRun};
use crate::guard::{SelectArgs, Selection};

/// Applies delete's own rules (`delete.go` `Validate`), then the resource builder's
/// ([`crate::guard::selection`]) (pure). Messages are kubectl's own.
///
/// # Errors
/// kubectl's usage message.
pub fn select(args: &DeleteArgs) -> Result<Selection, String> {
    if args.now && args.grace_period != -1 {
        return Err("--now and --grace-period cannot be specified together".into());
    }
    if args.all && args.selector.is_some() {
        return Err("setting 'all' parameter but found a non empty selector. ".into());
    }
    crate::guard::selection(&select_args(args))
}

/// The selecting arguments of `delete`, as the shared selection reads them.
pub fn select_args(args: &DeleteArgs) -> SelectArgs<'_> {
    SelectArgs {
        args: &args.args,
        selector: args.selector.as_deref(),
        field_selector: args.field_selector.as_deref(),
        all: args.all,
        all_selects: true,
        all_namespaces: args.all_namespaces,
    }
}

/// `--cascade` as the DELETE's `propagationPolicy`.
pub fn propagation(c: Cascade) -> PropagationPolicy {
    match c {
        Cascade::Background => PropagationPolicy::Background,
        Cascade::Foreground => PropagationPolicy::Foreground,
        Cascade::Orphan => PropagationPolicy::Orphan,
    }
}

/// Parses `--timeout`: a bare number of seconds or a Go duration (`1h2m3.5s`, `500ms`);
/// `0` is kubectl's default, a week ([`crate::guard::delete::WAIT_FOREVER`]) (pure).
///
/// # Errors
/// A message naming the accepted forms.
pub fn timeout(text: &str) -> Result<Duration, String> {
    let bad = || {
        format!(
            "invalid --timeout {}: give a duration such as 30s, 2m or 1h",
            crate::base::echo::quoted(text)
        )
    };
    let secs = if let Ok(n) = text.parse::<f64>() {
        n
    } else {
        let mut total = 0.0;
        let mut rest = text;
        if rest.is_empty() {
            return Err(bad());
        }
        while !rest.is_empty() {
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .ok_or_else(bad)?;
            let n: f64 = rest[..end].parse().map_err(|_| bad())?;
            rest = &rest[end..];
            let unit_end = rest
                .find(|c: char| c.is_ascii_digit() || c == '.')
                .unwrap_or(rest.len());
            let mult = match &rest[..unit_end] {
                "h" => 3600.0,
                "m" => 60.0,
                "s" => 1.0,
                "ms" => 0.001,
                "us" | "µs" => 1e-6,
                "ns" => 1e-9,
                _ => return Err(bad()),
            };
            total += n * mult;
            rest = &rest[unit_end..];
        }
        total
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(bad());
    }
    if secs == 0.0 {
        return Ok(crate::guard::delete::WAIT_FOREVER);
    }
    Ok(Duration::from_secs_f64(secs.min(1e9)))
}

/// kubectl's line for one deleted object (pure): `configmap "a" deleted from x namespace`
/// (`deleted` alone for a cluster-scoped object), with ` (dry run)` or ` (server dry run)`;
/// with `-o name`, `configmap/a` (`delete.go` `PrintObj`, cli-runtime's `NamePrinter`).
pub fn line(
    prefix: &str,
    name: &str,
    ns: Option<&str>,
    dry_run: DryRun,
    name_only: bool,
) -> String {
    if name_only {
        return format!("{prefix}/{name}\n");
    }
    let place = ns
        .map(|n| format!(" from {n} namespace"))
        .unwrap_or_default();
    let dry = match dry_run {
        DryRun::None => "",
        DryRun::Client => " (dry run)",
        DryRun::Server => " (server dry run)",
    };
    format!("{prefix} \"{name}\" deleted{place}{dry}\n")
}

/// The DELETE's `gracePeriodSeconds` (pure), as kubectl computes it without `--force`
/// (kubectl `pkg/cmd/delete/delete.go`): `--now` is 1; `--grace-period=0` is 1 too (an
/// immediate removal needs kubectl's `--force`, which this tool does not offer); a positive
/// value is itself; a negative one (the default, -1) leaves the type's default.
pub fn grace_period(args: &DeleteArgs) -> Option<u32> {
    if args.now {
        return Some(1);
    }
    match args.grace_period {
        0 => Some(1),
        g if g > 0 => Some(u32::try_from(g).unwrap_or(u32::MAX)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_parse_as_go_durations_and_zero_is_a_week() {
        assert_eq!(timeout("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(timeout("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(timeout("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(timeout("3").unwrap(), Duration::from_secs(3));
        assert_eq!(timeout("0s").unwrap(), crate::guard::delete::WAIT_FOREVER);
        assert!(timeout("2x").is_err());
        assert!(timeout("-1s").is_err());
        assert!(timeout("").is_err());
    }

    #[test]
    fn lines_are_kubectls() {
        assert_eq!(
            line("configmap", "a", Some("x"), DryRun::None, false),
            "configmap \"a\" deleted from x namespace\n"
        );
        assert_eq!(
            line("namespace", "x", None, DryRun::Server, false),
            "namespace \"x\" deleted (server dry run)\n"
        );
        assert_eq!(
            line("deployment.apps", "w", Some("x"), DryRun::Client, true),
            "deployment.apps/w\n"
        );
    }

    #[test]
    fn grace_period_follows_kubectl_without_force() {
        let with = |now: bool, g: i64| {
            let mut a = <crate::cli::Cli as clap::Parser>::try_parse_from([
                "kubectl-myops",
                "delete",
                "cm",
                "x",
            ])
            .map(|c| match c.command {
                crate::cli::Command::Delete(a) => a,
                _ => unreachable!(),
            })
            .unwrap();
            a.now = now;
            a.grace_period = g;
            super::grace_period(&a)
        };
        assert_eq!(with(false, -1), None);
        assert_eq!(with(true, -1), Some(1));
        assert_eq!(with(false, 0), Some(1));
        assert_eq!(with(false, 30), Some(30));
    }
}
