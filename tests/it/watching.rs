//! A running `get -w` (ours or the real kubectl's) for tests, its stdout and stderr collected
//! as they come. Shared by the integration tests (tests/it/get_watch.rs) and the
//! fault-injection suite (tests/chaos/apiserver_restart.rs).

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::fixture::{Myops, cluster, root};

/// A running `get -w` (ours or kubectl's) whose stdout and stderr are collected as they
/// come; killed when dropped, so a failing test leaves no process behind.
pub struct Watching {
    pub child: Child,
    pub out: Arc<Mutex<Vec<u8>>>,
    pub err: Arc<Mutex<Vec<u8>>>,
    pub what: String,
}

impl Watching {
    pub fn spawn(mut c: Command, what: &str) -> Watching {
        let mut child = c
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the watch starts");
        let collect = |mut r: Box<dyn Read + Send>| {
            let buf = Arc::new(Mutex::new(Vec::new()));
            let b = buf.clone();
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n) = r.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    b.lock().unwrap().extend_from_slice(&chunk[..n]);
                }
            });
            buf
        };
        let out = collect(Box::new(child.stdout.take().unwrap()));
        let err = collect(Box::new(child.stderr.take().unwrap()));
        Watching {
            child,
            out,
            err,
            what: what.to_string(),
        }
    }

    pub fn ours(m: &Myops, args: &[&str]) -> Watching {
        Watching::spawn(
            m.command(args),
            &format!("kubectl-myops {}", args.join(" ")),
        )
    }

    pub fn kubectl(args: &[&str]) -> Watching {
        let mut c = Command::new(root().join("target/testbin/kubectl"));
        c.args(args)
            .env_clear()
            .env("KUBECONFIG", &cluster().kubeconfig)
            .stdin(Stdio::null());
        Watching::spawn(c, &format!("kubectl {}", args.join(" ")))
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.lock().unwrap()).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.err.lock().unwrap()).into_owned()
    }

    /// Waits until stdout has at least `lines` lines (20 s at most).
    pub fn until_lines(&self, lines: usize) {
        let end = Instant::now() + Duration::from_secs(20);
        while self.stdout().lines().count() < lines {
            assert!(
                Instant::now() < end,
                "{} printed {} of {lines} lines: {:?} / {:?}",
                self.what,
                self.stdout().lines().count(),
                self.stdout(),
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the process to end by itself (at most `limit`); returns its exit code.
    pub fn wait(&mut self, limit: Duration) -> i32 {
        let end = Instant::now() + limit;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                // Let the reader threads drain the pipes.
                std::thread::sleep(Duration::from_millis(100));
                return s.code().unwrap_or(-1);
            }
            assert!(
                Instant::now() < end,
                "{} still runs after {limit:?}: {:?}",
                self.what,
                self.stdout()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends `signal` (`INT`, `TERM`) and returns the exit code.
    pub fn stop(&mut self, signal: &str) -> i32 {
        let _ = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status();
        self.wait(Duration::from_secs(20))
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
