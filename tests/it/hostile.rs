//! The bad-input suite (issue 10): named cases, table-driven, each run in a fresh HOME and
//! MYOPS_HOME against the real test cluster. Every case asserts, besides its own expectation:
//! the documented exit code, exactly one `error:` line on stderr naming the problem (unless
//! the case says the command reports several), no panic, no hang (killed and failed after its
//! deadline), and the planted [`CANARY`] secret absent from stdout, stderr, every file under
//! MYOPS_HOME (journal, metrics state) and — once per table — the Pushgateway.
//!
//! A case file (`hostile_*.rs`) builds a `Vec<Case>` and hands it to [`run_cases`]; the
//! argument list may use `{dir}` (the case's private directory), `{canary}`, `{server}`
//! (the test cluster's API server URL) and `{env:NAME}` (a variable set by the case's
//! setup), replaced before the run.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Run, cluster, text_of};

/// The planted secret: a token, password or Secret value that must never be printed or stored.
pub const CANARY: &str = "c4n4ryS3cr3tT0k3nDoNotLeak";

/// The boundary used unless a case sets its own: get and patch on the kinds the cases use,
/// both scopes, every metric family, pushing to the cluster's Pushgateway under `job`.
pub fn plugin_yaml(job: &str) -> String {
    format!(
        "name: myops\nverbs: [get, patch]\nresources: [pods, configmaps, secrets, namespaces, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds, crd_loads_total, crd_load_duration_seconds]\npushgateway:\n  url: {}\n  job: {job}\n  instance: hostile\n  timeout: 1s\n",
        cluster().pushgateway
    )
}

type Setup = Box<dyn Fn(&mut Myops) + Send + Sync>;
type After = Box<dyn Fn(&Myops, &Run) -> Result<(), String> + Send + Sync>;

/// One named bad input and what the contract says must happen.
pub struct Case {
    pub name: String,
    args: Vec<String>,
    exit: i32,
    needles: Vec<String>,
    setup: Option<Setup>,
    after: Option<After>,
    several_errors: bool,
    answer: bool,
    deadline: Duration,
    plugin_yaml: Option<String>,
}

impl Case {
    /// A case named `name` (the failure it reproduces) expecting exit code `exit`.
    pub fn new(name: &str, exit: i32) -> Case {
        Case {
            name: name.into(),
            args: Vec::new(),
            exit,
            needles: Vec::new(),
            setup: None,
            after: None,
            several_errors: false,
            answer: false,
            deadline: Duration::from_secs(30),
            plugin_yaml: None,
        }
    }

    /// The arguments (`{dir}`, `{canary}`, `{server}` are replaced).
    pub fn args(mut self, args: &[&str]) -> Case {
        self.args = args.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The arguments as owned strings (for computed ones, such as a 100,000-character name).
    pub fn args_owned(mut self, args: Vec<String>) -> Case {
        self.args = args;
        self
    }

    /// A substring stderr must contain: the words that name the problem.
    pub fn stderr_has(mut self, needle: &str) -> Case {
        self.needles.push(needle.into());
        self
    }

    /// Prepares files and environment in the case's private directory before the run.
    pub fn setup(mut self, f: impl Fn(&mut Myops) + Send + Sync + 'static) -> Case {
        self.setup = Some(Box::new(f));
        self
    }

    /// A check after the run (nothing half-applied, state intact); `Err(why)` fails the case.
    pub fn after(
        mut self,
        f: impl Fn(&Myops, &Run) -> Result<(), String> + Send + Sync + 'static,
    ) -> Case {
        self.after = Some(Box::new(f));
        self
    }

    /// The command reports one error per bad input (a directory of bad files), not one in all.
    pub fn several_errors(mut self) -> Case {
        self.several_errors = true;
        self
    }

    /// The exit code is an answer, not an error (`drift`'s 6): no `error:` line is expected.
    pub fn answer(mut self) -> Case {
        self.answer = true;
        self
    }

    /// How long the run may take before it counts as a hang (default 30 s).
    pub fn deadline(mut self, d: Duration) -> Case {
        self.deadline = d;
        self
    }

    /// The plugin.yaml for this case instead of [`plugin_yaml`].
    pub fn plugin(mut self, yaml: &str) -> Case {
        self.plugin_yaml = Some(yaml.into());
        self
    }
}

/// Replaces `{dir}`, `{canary}`, `{server}` and `{env:NAME}` (a variable the case's setup
/// set) in `arg`.
fn expand(arg: &str, m: &Myops) -> String {
    let mut a = arg
        .replace("{dir}", &m.dir.path().display().to_string())
        .replace("{canary}", CANARY)
        .replace("{server}", &server());
    for (k, v) in &m.env {
        a = a.replace(&format!("{{env:{k}}}"), v);
    }
    a
}

/// The test cluster's API server URL (from its kubeconfig).
pub fn server() -> String {
    let text = std::fs::read_to_string(&cluster().kubeconfig).expect("kubeconfig readable");
    let at = text.find("server: ").expect("kubeconfig has a server") + "server: ".len();
    text[at..]
        .split([',', '}', '\n'])
        .next()
        .unwrap()
        .trim()
        .trim_matches(['"', '\''])
        .to_string()
}

/// Runs the binary with `m`'s environment, killing it after `deadline`; `None` on a hang.
fn run_bounded(m: &Myops, args: &[String], deadline: Duration) -> Option<Run> {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child = m
        .command(&argv)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err.read_to_end(&mut b);
        b
    });
    let end = Instant::now() + deadline;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait works") {
            break Some(s);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = t_out.join().unwrap();
    let stderr = t_err.join().unwrap();
    status.map(|s| Run {
        code: s.code().unwrap_or(-1),
        stdout: text_of(&stdout),
        stderr: text_of(&stderr),
    })
}

/// Every file under `dir` whose bytes contain the canary.
fn files_with_canary(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in rd.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            found.extend(files_with_canary(&p));
        } else if ft.is_file()
            && std::fs::read(&p)
                .map(|b| contains(&b, CANARY.as_bytes()))
                .unwrap_or(false)
        {
            found.push(p.display().to_string());
        }
    }
    found
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Runs one case; `Err` lists every broken promise.
fn check(case: &Case, job: &str) -> Result<(), String> {
    let mut m = Myops::new(case.plugin_yaml.as_deref().unwrap_or(&plugin_yaml(job)));
    if let Some(s) = &case.setup {
        s(&mut m);
    }
    let args: Vec<String> = case.args.iter().map(|a| expand(a, &m)).collect();
    let Some(run) = run_bounded(&m, &args, case.deadline) else {
        return Err(format!("hung (killed after {:?})", case.deadline));
    };
    let mut why = Vec::new();
    if run.code != case.exit {
        why.push(format!("exit {} (want {})", run.code, case.exit));
    }
    if run.stderr.contains("panicked") || run.stderr.contains("RUST_BACKTRACE") {
        why.push("panicked".into());
    }
    for n in &case.needles {
        if !run.stderr.contains(n.as_str()) {
            why.push(format!("stderr lacks {n:?}"));
        }
    }
    let errors = run
        .stderr
        .lines()
        // A server error is printed bare, as kubectl prints it (`Error from server (NotFound): …`).
        .filter(|l| l.starts_with("error:") || l.starts_with("Error from server"))
        .count();
    if case.exit != 0 && !case.answer && errors == 0 {
        why.push("no `error:` line".into());
    }
    if !case.several_errors && errors > 1 {
        why.push(format!("{errors} `error:` lines, want one"));
    }
    if run.stderr.len() > 8192 && !case.several_errors {
        why.push(format!("{} bytes on stderr", run.stderr.len()));
    }
    if run.stdout.contains(CANARY) {
        why.push("canary on stdout".into());
    }
    if run.stderr.contains(CANARY) {
        why.push("canary on stderr".into());
    }
    for f in files_with_canary(&m.dir.path().join("myops")) {
        why.push(format!("canary stored in {f}"));
    }
    if let Some(a) = &case.after
        && let Err(e) = a(&m, &run)
    {
        why.push(e);
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\n    stderr: {}",
            why.join("; "),
            run.stderr.chars().take(600).collect::<String>()
        ))
    }
}

/// Runs `cases` four at a time under the Pushgateway job `hostile-<group>`, then checks the
/// Pushgateway for the canary; panics listing every failed case by name.
pub fn run_cases(group: &str, cases: Vec<Case>) {
    let job = format!("hostile-{group}");
    let mut names = std::collections::HashSet::new();
    for c in &cases {
        assert!(names.insert(c.name.clone()), "duplicate case {}", c.name);
    }
    let queue = std::sync::Mutex::new(cases.iter().collect::<Vec<_>>());
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let Some(c) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    if let Err(e) = check(c, &job) {
                        failures.lock().unwrap().push(format!("{}: {e}", c.name));
                    }
                }
            });
        }
    });
    let metrics = std::process::Command::new("curl")
        .args(["-sf", &format!("{}/metrics", cluster().pushgateway)])
        .output()
        .expect("curl runs");
    let mut failures = failures.into_inner().unwrap();
    if contains(&metrics.stdout, CANARY.as_bytes()) {
        failures.push("the Pushgateway holds the canary".into());
    }
    eprintln!("{group}: {} cases", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {} {group} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
